// The signed-in person's authenticator app (TOTP): status, enrolment, confirmation, turning it off.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { totpCodeBody, totpEnrolment, totpStatus } from '../../src/core/schemas/totp';
import { confirmEnrolment, disableTotp, startEnrolment, totpEnabled } from '../auth/totp';
import { fieldError } from '../http/errors';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Authenticator app'];
const wrongCode = () => fieldError([{ field: 'code', rule: 'rule.totpCode' }]);

export function totpRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/user/totp', tags, access: Permission.SelfService, summary: 'Whether the signed-in person signs in with an authenticator app', response: totpStatus,
    handler: async ({ actor }) => ({ enabled: await totpEnabled(ctx, actor.user.id) }),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/user/totp', tags, access: Permission.SelfService, summary: 'Start setting up an authenticator app (the secret is shown this once)', response: totpEnrolment,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor }) => {
      const { value: config } = await ctx.settings.get('config');
      return startEnrolment(ctx, actor.user, config.system.appName);
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/user/totp/confirm', tags, access: Permission.SelfService, summary: 'Confirm the authenticator app with a code from it', body: totpCodeBody, response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, body, raw }) => {
      if (!(await confirmEnrolment(ctx, actor.user.id, body.code))) throw wrongCode();
      await ctx.audit.record({ action: 'user.update', actor, target: { type: 'user', id: actor.user.id }, tenantId: actor.user.tenantId, ip: raw.ip, detail: { totp: 'enabled' } });
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/user/totp/disable', tags, access: Permission.SelfService, summary: 'Turn the authenticator app off (needs a current code)', body: totpCodeBody, response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, body, raw }) => {
      if (!(await disableTotp(ctx, actor.user.id, body.code))) throw wrongCode();
      await ctx.audit.record({ action: 'user.update', actor, target: { type: 'user', id: actor.user.id }, tenantId: actor.user.tenantId, ip: raw.ip, detail: { totp: 'disabled' } });
      return null;
    },
  });
}
