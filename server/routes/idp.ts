// third-party sign-in calls and the identity providers behind them. A provider ticket is read and
// redeemed only by the browser that started the sign-in, and never replaces a live session unless
// the person confirmed the switch.
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { loginAnswer } from '../../src/core/schemas/auth';
import { accessInfo, accessInfoParams, accessTicketQuery, complementBody, idpCodeParams, idpCreateBody, idpDetail, idpSummary, linkBody } from '../../src/core/schemas/idp';
import { existingAccountOf, findTicket, linkTicket, redeemTicket } from '../auth/third-party';
import { startSession } from '../auth/login';
import { newId } from '../auth/secrets';
import { ApiError, fieldError, notFound } from '../http/errors';
import type { Actor } from '../auth/actor';
import { releaseBrowser } from '../idp/browser-binding';
import { isUniqueViolation } from '../db/errors';
import { checkIcon, configWithIcon, iconOf } from '../idp/provider-config';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Third-party sign-in'];

/** A stored config's text setting by name ('' when absent). */
const settingOf = (text: string) => {
  const config = JSON.parse(text) as Record<string, unknown>;
  return (name: string) => (typeof config[name] === 'string' ? config[name] : '');
};

/** A third-party sign-in opened over someone's live session (the person's own, or a victim's who
 *  followed a link) goes on only once the person confirmed the switch (`switchAccount`). */
function refuseSilentSwitch(actor: Actor | null, switchAccount: boolean | undefined): void {
  if (actor && switchAccount !== true) throw new ApiError(409, 'You are already signed in: confirm that this sign-in replaces the current one');
}

export function idpRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/interaction/idp/:idpCode/authorize/user/access/info/:token', tags, access: 'public',
    summary: 'What the provider told us about the user, and whether they must complete their data',
    params: accessInfoParams, query: accessTicketQuery, response: accessInfo,
    handler: async ({ params, query, raw }) => {
      const ticket = await findTicket(ctx, raw, params.idpCode, query.access_ticket, params.token);
      const existing = ticket.userId === null ? await existingAccountOf(ctx, ticket.profile) : undefined;
      return {
        idpCode: ticket.idpCode, token: ticket.token, accessTicket: query.access_ticket,
        needComplement: ticket.userId === null, complement: JSON.parse(ticket.profile) as Record<string, unknown>,
        ...(existing ? { existingAccount: { username: existing.username } } : {}),
      };
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/interaction/idp/:idpCode/authorize/after/user/complement', tags, access: 'public',
    summary: 'Complete the data of a first-time third-party user (if needed) and sign in',
    params: idpCodeParams, query: accessTicketQuery, body: complementBody, response: loginAnswer, rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, params, query, body, raw }, reply) => {
      const ticket = await findTicket(ctx, raw, params.idpCode, query.access_ticket);
      refuseSilentSwitch(actor, body.switchAccount);
      const user = await redeemTicket(ctx, ticket, body);
      releaseBrowser(raw, reply, params.idpCode);
      return startSession(ctx, raw, reply, user, undefined, 'login.third_party');
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/interaction/idp/:idpCode/authorize/after/user/link', tags, access: 'public',
    summary: "Link the provider's account to the existing account with its email (that account's password, and its authenticator code if it has one), then sign in",
    params: idpCodeParams, query: accessTicketQuery, body: linkBody, response: loginAnswer, rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, params, query, body, raw }, reply) => {
      const ticket = await findTicket(ctx, raw, params.idpCode, query.access_ticket);
      refuseSilentSwitch(actor, body.switchAccount);
      const user = await linkTicket(ctx, ticket, body);
      releaseBrowser(raw, reply, params.idpCode);
      return startSession(ctx, raw, reply, user, undefined, 'login.third_party');
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/idps', tags, access: 'public', summary: 'Enabled identity providers (for the sign-in page)', response: v.array(idpSummary),
    handler: async () => {
      const rows = await ctx.db.selectFrom('idps').select(['code', 'name', 'type', 'config']).where('enabled', '=', 1).orderBy('name').execute();
      // Of the config, only the button's icon is public.
      return rows.map(({ config, ...row }) => ({ ...row, enabled: true, icon: iconOf(config) }));
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/idps/all', tags, access: Permission.Settings, summary: 'Every identity provider, disabled ones too, with its settings but never its client secret',
    response: v.array(idpDetail),
    handler: async () => {
      const rows = await ctx.db.selectFrom('idps').select(['code', 'name', 'type', 'config', 'enabled']).orderBy('name').orderBy('code').execute();
      return rows.map(({ config, enabled, ...row }) => {
        const setting = settingOf(config);
        return { ...row, enabled: enabled === 1, icon: iconOf(config), issuer: setting('issuer'), clientId: setting('clientId'), scopes: setting('scopes'), hasClientSecret: setting('clientSecret') !== '' };
      });
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/idps', tags, access: Permission.Settings, summary: 'Add an identity provider (its client secret is never answered back)', body: idpCreateBody, response: idpSummary,
    handler: async ({ actor, body, raw }) => {
      await checkIcon(ctx, body.icon);
      const config = configWithIcon({}, body.config, body.icon);
      try {
        await ctx.db.insertInto('idps').values({ id: newId(), code: body.code, name: body.name, type: body.type, config: JSON.stringify(config), enabled: body.enabled === false ? 0 : 1, createdAt: ctx.now() }).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw fieldError([{ field: 'code', rule: 'rule.duplicate' }]);
        throw error;
      }
      await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'idp', id: body.code }, ip: raw.ip });
      return { code: body.code, name: body.name, type: body.type, enabled: body.enabled !== false, icon: iconOf(JSON.stringify(config)) };
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/idps/:idpCode', tags, access: Permission.Settings, summary: 'Remove an identity provider', params: idpCodeParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      const deleted = await ctx.db.deleteFrom('idps').where('code', '=', params.idpCode).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('Identity provider');
      await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'idp', id: params.idpCode }, ip: raw.ip, detail: { deleted: true } });
      return null;
    },
  });
}
