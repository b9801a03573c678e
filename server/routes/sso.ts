// Single sign-on for the apps: the OpenID Connect provider mounted at /api/oidc (its own endpoints,
// answered by oidc-provider), the consent page's calls, and the apps' client secrets.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { appParams } from '../../src/core/schemas/resources';
import { clientSecretAnswer, clientStatus as clientStatusSchema, consentAnswer, consentBody, interaction, interactionParams, oidcClientBody } from '../../src/core/schemas/sso';
import { OIDC_MOUNT, OIDC_PATH, OidcProvider } from '../oidc/provider';
import { finishInteraction, interactionDetails } from '../oidc/interactions';
import { callbackUrls, clientStatus, rotateClientSecret, updateClient } from '../oidc/clients';
import { oidcDb } from '../oidc/tables';
import { withReadAhead } from '../oidc/read-ahead';
import { ExpirySweeper } from '../oidc/sweep';
import { canManageApp } from '../auth/scope';
import { assertMayTrustApps } from '../auth/grants';
import { ApiError, notFound } from '../http/errors';
import { safeRedirect } from '../http/redirect';
import { assertOutboundUri } from '../http/outbound-field';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Single sign-on'];

/** Hands the request to oidc-provider (a Koa app): its own body parsing, its own answers. */
function mountProvider(app: FastifyInstance, ctx: Ctx, oidc: OidcProvider): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handle = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
      const provider = await oidc.get();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      // The provider builds its endpoints' URLs from the request: it sees our public origin, and
      // the client address Fastify believed (a forwarded one only from a trusted proxy).
      const site = new URL(ctx.site.origin());
      raw.headers.host = site.host;
      raw.headers['x-forwarded-proto'] = site.protocol.slice(0, -1);
      raw.headers['x-forwarded-for'] = request.ip;
      delete raw.headers['x-forwarded-host'];
      // oidc-provider finds its mount path by comparing originalUrl with url.
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '').slice(OIDC_PATH.length) || '/';
      reply.hijack();
      await withReadAhead(() => provider.callback()(raw, reply.raw));
    };
    scope.all(`${OIDC_MOUNT}/*`, { schema: { hide: true } }, handle);
  });
}

export function ssoRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const oidc = OidcProvider.of(ctx);
  const db = oidcDb(ctx.db);
  mountProvider(app, ctx, oidc);
  const sweeper = new ExpirySweeper(db, ctx.now, (error) => app.log.error({ err: error }, 'oidc expiry sweep'));
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', () => sweeper.stop());

  defineRoute(app, gate, {
    method: 'GET', url: '/sso/interactions/:uid', tags, access: Permission.SelfService,
    summary: 'What an app asks of the signed-in user (the consent page)', params: interactionParams, response: interaction,
    handler: async ({ params }) => interactionDetails(await oidc.get(), db, params.uid),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/sso/interactions/:uid', tags, access: Permission.SelfService,
    summary: 'Allow or deny the app; answers where the browser goes next', params: interactionParams, body: consentBody, response: consentAnswer,
    handler: async ({ actor, params, body, raw }) => {
      return { redirectURL: safeRedirect(ctx, raw, await finishInteraction(await oidc.get(), ctx.db, params.uid, actor.user.id, body.allow)) };
    },
  });

  /** The app, when the actor may manage it; its callback URLs are the client's redirect URIs. */
  const manageable = async (actor: Parameters<typeof canManageApp>[0], appId: string) => {
    const row = await ctx.db.selectFrom('apps').select(['id', 'callbackUrl']).where('id', '=', appId).executeTakeFirst();
    if (!row || !canManageApp(actor, appId)) throw notFound('App');
    return row;
  };

  const clientView = async (appId: string, callbackUrl: string | null) =>
    ({ clientId: appId, issuer: (await oidc.get()).issuer, redirectUris: callbackUrls(callbackUrl), ...(await clientStatus(db, appId)) });

  defineRoute(app, gate, {
    method: 'GET', url: '/apps/:appId/oidc-client', tags, access: Permission.Apps,
    summary: 'The app as an OpenID Connect client (never its secret)', params: appParams, response: clientStatusSchema,
    handler: async ({ actor, params }) => {
      const { callbackUrl } = await manageable(actor, params.appId);
      return clientView(params.appId, callbackUrl);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/apps/:appId/oidc-client', tags, access: Permission.Apps,
    summary: 'Change the app\'s client: post-logout and back-channel logout URIs, the client_credentials grant, JWT access tokens, trusted (no consent page; platform administrator only)',
    params: appParams, body: oidcClientBody, response: clientStatusSchema,
    handler: async ({ actor, params, body, raw }) => {
      const { callbackUrl } = await manageable(actor, params.appId);
      if (body.trusted !== undefined) assertMayTrustApps(actor);
      if (body.backchannelLogoutUri) await assertOutboundUri(ctx, 'backchannelLogoutUri', body.backchannelLogoutUri);
      const changes = {
        ...body,
        ...(body.postLogoutRedirectUris ? { postLogoutRedirectUris: [...new Set(body.postLogoutRedirectUris)] } : {}),
        ...(body.backchannelLogoutUri !== undefined ? { backchannelLogoutUri: body.backchannelLogoutUri || null } : {}),
      };
      if (!(await updateClient(db, params.appId, changes))) throw new ApiError(409, 'Generate a client secret first');
      await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: params.appId }, ip: raw.ip, detail: changes });
      return clientView(params.appId, callbackUrl);
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/apps/:appId/oidc-client/secret', tags, access: Permission.Apps,
    summary: 'Generate (or rotate) the app\'s client secret: shown in this answer only', params: appParams, response: clientSecretAnswer,
    handler: async ({ actor, params, raw }) => {
      await manageable(actor, params.appId);
      const clientSecret = await rotateClientSecret(db, params.appId, ctx.now());
      await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: params.appId }, ip: raw.ip, detail: { clientSecret: 'rotated' } });
      return { clientId: params.appId, clientSecret, issuer: (await oidc.get()).issuer };
    },
  });
}
