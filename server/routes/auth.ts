// sign-in calls: /authc/login, /cas/session, /cas/login, /cas/logout, the captcha image and
// the unlock call; the sign-in code of the PHONE_CAPTCHA method, the second step after a step
// ticket and the change of an expired password; plus the current user's sessions (list, sign out one or all others).
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import {
  captchaQuery,
  casLoginAnswer,
  expiredPasswordBody,
  loginAnswer,
  loginBody,
  loginCodeBody,
  loginQuery,
  loginStepBody,
  logoutAnswer,
  sessionAnswer,
  sessionInfo,
} from '../../src/core/schemas/auth';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { changeExpiredPassword, login, sendLoginCode } from '../auth/login';
import { continueSignIn } from '../auth/login-step';
import { safeRedirect } from '../http/redirect';
import { issueCaptcha } from '../auth/captcha';
import { clearSessionCookie, credentialOf } from '../auth/gate';
import { notFound } from '../http/errors';
import { revokeAppGrants } from '../oidc/revoke';
import { chainUrl } from '../saml/front-channel';
import { bindChainToBrowser, newChain } from '../saml/chain-browser';
import { sessionAnswerOf } from '../services/session';
import { unlockUser } from '../services/users';
import { Permission } from '../../src/core/permission-codes';
import { endPendingSignIns } from '../auth/step-tickets';

const tags = ['Authentication'];

export const authRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'POST',
    url: '/authc/login',
    tags,
    access: 'public',
    summary: 'Sign in (password transformed by the browser); may answer a next step',
    body: loginBody,
    query: loginQuery,
    response: loginAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: (req, reply) => login(ctx, req.raw, reply, req.body, req.query.redirect),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/authc/login/step',
    tags,
    access: 'public',
    summary:
      'The second step of a sign-in that answered a step ticket (after a phone code or a third-party provider): the ticket and the code open the session',
    body: loginStepBody,
    query: loginQuery,
    response: loginAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: (req, reply) => continueSignIn(ctx, req.raw, reply, req.body, req.query.redirect),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/authc/login/code',
    tags,
    access: 'public',
    summary: 'PHONE_CAPTCHA login method: send a sign-in code by SMS (captcha first when asked; answers alike for unknown numbers)',
    body: loginCodeBody,
    response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ body, raw }) => sendLoginCode(ctx, raw, body),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/authc/password/expired',
    tags,
    access: 'public',
    summary: 'After a sign-in answered PASSWORD_EXPIRED: old and new password (transformed); opens the session',
    body: expiredPasswordBody,
    query: loginQuery,
    response: loginAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: (req, reply) => changeExpiredPassword(ctx, req.raw, reply, req.body, req.query.redirect),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/cas/session',
    tags,
    access: Permission.SelfService,
    summary: 'The signed-in user (session user info)',
    response: sessionAnswer,
    handler: ({ actor }) => sessionAnswerOf(ctx, actor),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/cas/login',
    tags,
    access: 'public',
    summary: 'Is the caller signed in, and where to go next',
    query: loginQuery,
    response: casLoginAnswer,
    handler: async ({ actor, query, raw }) =>
      actor
        ? { loginSuccess: true, redirectURL: safeRedirect(ctx, raw, query.redirect), message: 'Login success' }
        : { loginSuccess: false, redirectURL: `/login?redirect=${encodeURIComponent(safeRedirect(ctx, raw, query.redirect))}`, message: 'session expired' },
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/cas/logout',
    tags,
    access: 'public',
    summary: 'Sign out of this session',
    response: logoutAnswer,
    handler: async ({ actor, raw }, reply) => {
      const credential = await credentialOf(ctx, raw);
      // The SAML apps reached only through the browser are visited next, by this browser only
      // (server/saml/front-channel.ts, chain-browser.ts).
      const chain = newChain();
      await ctx.audit.change(async () => {
        if (credential) await ctx.sessions.revokeSecret(credential.secret);
        if (actor) await revokeAppGrants(ctx.db, actor.id, chain.id);
        if (actor)
          await ctx.audit.record({ action: 'logout', actor, target: { type: 'session', id: actor.sessionId }, tenantId: actor.user.tenantId, ip: raw.ip });
      });
      clearSessionCookie(raw, reply);
      const appLogoutURL = actor ? await chainUrl(ctx, chain.id) : undefined;
      if (appLogoutURL) bindChainToBrowser(raw, reply, chain);
      return { redirectURL: '/login', ...(appLogoutURL ? { appLogoutURL } : {}) };
    },
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/captcha/image/display',
    tags,
    access: 'public',
    summary: 'A new captcha image (SVG) for this client; single use, valid 2 minutes',
    query: captchaQuery,
    raw: { contentType: 'image/svg+xml' },
    rateLimit: ctx.config.rateLimits.captcha,
    handler: async ({ query, raw }, reply) => {
      const svg = await issueCaptcha(ctx, raw, reply, query.key);
      reply
        .header('content-type', 'image/svg+xml')
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(svg);
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/authc/user/:id/login/unlock',
    tags,
    access: Permission.Users,
    summary: 'Unlock a user locked after failed sign-ins',
    params: idParams,
    response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      await unlockUser(ctx, actor, params.id, raw.ip);
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/cas/sessions',
    tags,
    access: Permission.SelfService,
    summary: "The current user's sessions",
    response: v.array(sessionInfo),
    handler: async ({ actor }) => (await ctx.sessions.list(actor.id)).map((row) => ({ ...row, current: row.id === actor.sessionId })),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/cas/sessions/:id',
    tags,
    access: Permission.SelfService,
    summary: 'Sign out one of my sessions',
    params: idParams,
    response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      const mine = (await ctx.sessions.list(actor.id)).some((row) => row.id === params.id);
      if (!mine) throw notFound('Session');
      await ctx.audit.change(async () => {
        await ctx.sessions.revoke(params.id);
        await ctx.audit.record({ action: 'session.revoke', actor, target: { type: 'session', id: params.id }, tenantId: actor.user.tenantId, ip: raw.ip });
      });
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/cas/sessions',
    tags,
    access: Permission.SelfService,
    summary: 'Sign out all my other sessions',
    response: v.object({ revoked: v.number() }),
    handler: async ({ actor, raw }) => {
      const revoked = await ctx.audit.change(async () => {
        const revoked = await ctx.sessions.revokeUser(actor.id, actor.sessionId);
        await endPendingSignIns(ctx.db, actor.id);
        await ctx.audit.record({
          action: 'session.revoke',
          actor,
          target: { type: 'user', id: actor.id },
          tenantId: actor.user.tenantId,
          ip: raw.ip,
          detail: { others: revoked },
        });
        return revoked;
      });
      return { revoked };
    },
  });
};
