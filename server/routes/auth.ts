// sign-in calls: /authc/login, /cas/session, /cas/login, /cas/logout, the captcha image and
// the unlock call; the sign-in code of the PHONE_CAPTCHA method, the second step after a step
// ticket and the change of an expired password; plus the current user's sessions (list, sign out one or all others).
import type { FastifyPluginAsync } from 'fastify';
import { linkRoute, route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/auth';
import { changeExpiredPassword, login, sendLoginCode } from '../auth/login';
import { continueSignIn } from '../auth/login-step';
import { safeRedirect } from '../http/redirect';
import { issueCaptcha } from '../auth/captcha';
import { checkCookieGetFromOwnSite, clearSessionCookie, credentialOf } from '../auth/gate';
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
  route(app, gate, calls.postAuthcLogin, {
    tags,
    access: 'public',
    summary: 'Sign in (password transformed by the browser); may answer a next step',
    rateLimit: ctx.config.rateLimits.login,
    handler: (req, reply) => login(ctx, req.raw, reply, req.body, req.query.redirect),
  });

  route(app, gate, calls.postAuthcLoginStep, {
    tags,
    access: 'public',
    summary:
      'The second step of a sign-in that answered a step ticket (after a phone code or a third-party provider): the ticket and the code open the session',
    rateLimit: ctx.config.rateLimits.login,
    handler: (req, reply) => continueSignIn(ctx, req.raw, reply, req.body, req.query.redirect),
  });

  route(app, gate, calls.postAuthcLoginCode, {
    tags,
    access: 'public',
    summary: 'PHONE_CAPTCHA login method: send a sign-in code by SMS (captcha first when asked; answers alike for unknown numbers)',
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ body, raw }) => sendLoginCode(ctx, raw, body),
  });

  route(app, gate, calls.putAuthcPasswordExpired, {
    tags,
    access: 'public',
    summary: 'After a sign-in answered PASSWORD_EXPIRED: old and new password (transformed); opens the session',
    rateLimit: ctx.config.rateLimits.login,
    handler: (req, reply) => changeExpiredPassword(ctx, req.raw, reply, req.body, req.query.redirect),
  });

  route(app, gate, calls.getCasSession, {
    tags,
    access: Permission.SelfService,
    summary: 'The signed-in user (session user info)',
    handler: ({ actor }) => sessionAnswerOf(ctx, actor),
  });

  route(app, gate, calls.getCasLogin, {
    tags,
    access: 'public',
    summary: 'Is the caller signed in, and where to go next',
    handler: async ({ actor, query, raw }) =>
      actor
        ? { loginSuccess: true, redirectURL: safeRedirect(ctx, raw, query.redirect), message: 'Login success' }
        : { loginSuccess: false, redirectURL: `/login?redirect=${encodeURIComponent(safeRedirect(ctx, raw, query.redirect))}`, message: 'session expired' },
  });

  route(app, gate, calls.getCasLogout, {
    tags,
    access: 'public',
    summary: 'Sign out of this session',
    handler: async ({ actor, raw }, reply) => {
      checkCookieGetFromOwnSite(ctx, raw);
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

  linkRoute(app, gate, calls.getCaptchaImage, {
    tags,
    access: 'public',
    summary: 'A new captcha image (PNG) for this client; single use, valid 2 minutes',
    rateLimit: ctx.config.rateLimits.captcha,
    handler: async ({ query, raw }, reply) => {
      const png = await issueCaptcha(ctx, raw, reply, query.key);
      reply
        .header('content-type', 'image/png')
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(png);
    },
  });

  route(app, gate, calls.deleteAuthcUserLoginUnlock, {
    tags,
    access: Permission.Users,
    summary: 'Unlock a user locked after failed sign-ins',
    handler: async ({ actor, params, raw }) => {
      await unlockUser(ctx, actor, params.id, raw.ip);
      return null;
    },
  });

  route(app, gate, calls.getCasSessions, {
    tags,
    access: Permission.SelfService,
    summary: "The current user's sessions",
    handler: async ({ actor }) => (await ctx.sessions.list(actor.id)).map((row) => ({ ...row, current: row.id === actor.sessionId })),
  });

  route(app, gate, calls.deleteCasSessionsById, {
    tags,
    access: Permission.SelfService,
    summary: 'Sign out one of my sessions',
    handler: async ({ actor, params, raw }) => {
      const mine = (await ctx.sessions.list(actor.id)).some((row) => row.id === params.id);
      if (!mine) throw notFound('Session');
      await ctx.audit.change(async () => {
        if (!(await ctx.sessions.revoke(params.id))) throw notFound('Session');
        await ctx.audit.record({ action: 'session.revoke', actor, target: { type: 'session', id: params.id }, tenantId: actor.user.tenantId, ip: raw.ip });
      });
      return null;
    },
  });

  route(app, gate, calls.deleteCasSessions, {
    tags,
    access: Permission.SelfService,
    summary: 'Sign out all my other sessions',
    handler: async ({ actor, raw }) => {
      const revoked = await ctx.audit.change(async () => {
        const revoked = await ctx.sessions.revokeUser(actor.id, actor.sessionId);
        const pendingSignIns = await endPendingSignIns(ctx.db, actor.id);
        // Nothing ended (no other session): no event, no record (as signOutEverywhere).
        if (revoked + pendingSignIns === 0) return 0;
        await ctx.audit.record({
          action: 'session.revoke',
          actor,
          target: { type: 'user', id: actor.id },
          tenantId: actor.user.tenantId,
          ip: raw.ip,
          detail: { others: revoked, pendingSignIns },
        });
        return revoked;
      });
      return { revoked };
    },
  });
};
