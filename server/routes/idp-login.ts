// Third-party sign-in flow with an OpenID Connect identity provider (start and callback), and the
// update of a configured provider (its secrets stay write-only).
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { idpCodeParams, idpSummary } from '../../src/core/schemas/idp';
import { idpUpdateBody, providerStartQuery } from '../../src/core/schemas/idp-login';
import { finishFlow, startFlow } from '../idp/flow';
import { checkIcon, configWithIcon, iconOf } from '../idp/provider-config';
import { ApiError, notFound } from '../http/errors';
import { safeRedirect } from '../http/redirect';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Third-party sign-in'];
const redirectDoc = { contentType: 'text/plain' };

export function idpLoginRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/interaction/idp/:idpCode/authorize', tags, access: 'public', raw: redirectDoc,
    summary: 'Start signing in with the provider (redirects to it with PKCE, state and nonce)', params: idpCodeParams, query: providerStartQuery,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ params, query, raw }, reply) => reply.redirect(await startFlow(ctx, raw, reply, params.idpCode, query.redirect), 302),
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/interaction/idp/:idpCode/authorize/callback', tags, access: 'public', raw: redirectDoc,
    summary: 'The provider\'s redirect back (redirects to /infoComplete with a provider ticket)', params: idpCodeParams,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ params, raw }, reply) => {
      try {
        return reply.redirect(safeRedirect(ctx, raw, await finishFlow(ctx, raw, params.idpCode)), 302);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // The console's page says the sign-in cannot go on (no ticket) and offers the sign-in page.
        return reply.redirect(`/infoComplete?${new URLSearchParams({ idpCode: params.idpCode, error: error.message }).toString()}`, 302);
      }
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/idps/:idpCode', tags, access: Permission.Settings, summary: 'Update an identity provider (blank config values keep the stored ones)',
    params: idpCodeParams, body: idpUpdateBody, response: idpSummary,
    handler: async ({ actor, params, body, raw }) => {
      const row = await ctx.db.selectFrom('idps').selectAll().where('code', '=', params.idpCode).executeTakeFirst();
      if (!row) throw notFound('Identity provider');
      await checkIcon(ctx, body.icon);
      const given = Object.fromEntries(Object.entries(body.config ?? {}).filter(([, value]) => value !== ''));
      const next = {
        name: body.name ?? row.name, type: body.type ?? row.type,
        config: JSON.stringify(configWithIcon(JSON.parse(row.config) as Record<string, string>, given, body.icon)),
        enabled: body.enabled === undefined ? row.enabled : Number(body.enabled),
      };
      await ctx.db.updateTable('idps').set(next).where('id', '=', row.id).execute();
      await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'idp', id: params.idpCode }, ip: raw.ip });
      return { code: row.code, name: next.name, type: next.type, enabled: next.enabled === 1, icon: iconOf(next.config) };
    },
  });
}
