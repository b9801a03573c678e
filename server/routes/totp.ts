// The signed-in person's authenticator app (TOTP): status, enrolment, confirmation, turning it off.
// The work is done by server/services/totp.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/totp';
import { totpEnabled } from '../auth/totp';
import { startTotp, switchTotp } from '../services/totp';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Authenticator app'];
const access = Permission.SelfService;

export const totpRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  const rateLimit = ctx.config.rateLimits.login;

  route(app, gate, calls.getUserTotp, {
    tags,
    access,
    summary: 'Whether the signed-in person signs in with an authenticator app',
    handler: async ({ actor }) => ({ enabled: await totpEnabled(ctx, actor.user.id) }),
  });

  route(app, gate, calls.postUserTotp, {
    tags,
    access,
    summary: 'Start setting up an authenticator app with the current password (the secret is shown this once)',
    rateLimit,
    handler: ({ actor, body, raw }) => startTotp(ctx, actor, body.password, raw.ip),
  });

  route(app, gate, calls.postUserTotpConfirm, {
    tags,
    access,
    summary: 'Confirm the authenticator app with a code from it',
    rateLimit,
    handler: ({ actor, body, raw }) => switchTotp(ctx, actor, true, body.code, raw.ip),
  });

  route(app, gate, calls.postUserTotpDisable, {
    tags,
    access,
    summary: 'Turn the authenticator app off (needs a current code)',
    rateLimit,
    handler: ({ actor, body, raw }) => switchTotp(ctx, actor, false, body.code, raw.ip),
  });
};
