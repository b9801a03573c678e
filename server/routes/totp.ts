// The signed-in person's authenticator app (TOTP): status, enrolment, confirmation, turning it off.
// The work is done by server/services/totp.ts.
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { totpCodeBody, totpEnrolBody, totpEnrolment, totpStatus } from '../../src/core/schemas/totp';
import { totpEnabled } from '../auth/totp';
import { startTotp, switchTotp } from '../services/totp';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Authenticator app'];
const access = Permission.SelfService;

export const totpRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  const rateLimit = ctx.config.rateLimits.login;

  defineRoute(app, gate, {
    method: 'GET',
    url: '/user/totp',
    tags,
    access,
    summary: 'Whether the signed-in person signs in with an authenticator app',
    response: totpStatus,
    handler: async ({ actor }) => ({ enabled: await totpEnabled(ctx, actor.user.id) }),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/totp',
    tags,
    access,
    summary: 'Start setting up an authenticator app with the current password (the secret is shown this once)',
    body: totpEnrolBody,
    response: totpEnrolment,
    rateLimit,
    handler: ({ actor, body, raw }) => startTotp(ctx, actor, body.password, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/totp/confirm',
    tags,
    access,
    summary: 'Confirm the authenticator app with a code from it',
    body: totpCodeBody,
    response: okAnswer,
    rateLimit,
    handler: ({ actor, body, raw }) => switchTotp(ctx, actor, true, body.code, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/totp/disable',
    tags,
    access,
    summary: 'Turn the authenticator app off (needs a current code)',
    body: totpCodeBody,
    response: okAnswer,
    rateLimit,
    handler: ({ actor, body, raw }) => switchTotp(ctx, actor, false, body.code, raw.ip),
  });
};
