// The signed-in person's account security: recovery codes (for people with a passkey or an
// authenticator app; a new set needs the current password) and signing themselves out everywhere
// (every console session, optionally but this one, and every app grant).
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/account-security';
import { Permission } from '../../src/core/permission-codes';
import { currentRecoveryCodeSet, generateRecoveryCodes, recoveryCodeStatus as statusOf } from '../auth/recovery-codes';
import { hasStrongFactor } from '../auth/strong-factor';
import { recheck } from '../auth/recheck';
import { ApiError } from '../http/errors';
import { signOutEverywhere } from '../services/sessions';
import { clearSessionCookie } from '../auth/gate';

const access = Permission.SelfService;

export const accountSecurityRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getUserRecoveryCodes, {
    tags: ['Authenticator app'],
    access,
    summary: 'How many of my recovery codes are left (never the codes)',
    handler: async ({ actor }) => ({ available: await hasStrongFactor(ctx, actor.id), ...(await statusOf(ctx, actor.id)) }),
  });

  route(app, gate, calls.postUserRecoveryCodes, {
    tags: ['Authenticator app'],
    access,
    summary: 'A new set of ten recovery codes, shown this once (the old set stops working); needs my password and a passkey or an authenticator app',
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, body, raw }) => {
      const replacing = await currentRecoveryCodeSet(ctx.db, actor.id);
      await recheck(ctx, actor, body, raw.ip);
      if (!(await hasStrongFactor(ctx, actor.id)))
        throw new ApiError(400, 'Recovery codes are for people with a passkey or an authenticator app: set one up first');
      const codes = await ctx.audit.change(async () => {
        const codes = await generateRecoveryCodes(ctx, actor.id, replacing);
        if (!codes) throw new ApiError(409, 'Another request made a new set of recovery codes at the same moment: the set it showed is the one in force');
        await ctx.audit.record({
          action: 'recovery.generate',
          actor,
          target: { type: 'user', id: actor.id },
          tenantId: actor.user.tenantId,
          ip: raw.ip,
          detail: { count: codes.length },
        });
        return codes;
      });
      return { codes };
    },
  });

  route(app, gate, calls.postCasLogoutEverywhere, {
    tags: ['Authentication'],
    access,
    summary: 'Sign me out everywhere: every console session (but this one with keepCurrent) and every app grant end (audited)',
    handler: async ({ actor, body, raw }, reply) => {
      const revoked = await signOutEverywhere(ctx, actor, actor.user, raw.ip, body.keepCurrent ? actor.sessionId : undefined);
      if (!body.keepCurrent) clearSessionCookie(raw, reply);
      return { revoked };
    },
  });
};
