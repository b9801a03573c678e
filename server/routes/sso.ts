// Single sign-on for the apps: the OpenID Connect provider mounted at /api/oidc (its own endpoints,
// answered by oidc-provider), the consent page's calls, and the apps as clients (their settings and
// secrets: server/services/app-clients.ts).
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Ctx } from '../context';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/sso';
import { OIDC_MOUNT, OIDC_PATH, OidcProvider } from '../oidc/provider';
import { consoleSignIn, finishInteraction, interactionDetails } from '../oidc/interactions';
import { oidcDb } from '../oidc/tables';
import { withReadAhead } from '../oidc/read-ahead';
import { readBody, withBodyAgain } from '../oidc/request-body';
import { introspection } from '../oidc/introspection';
import { TEMPORARILY_UNAVAILABLE } from '../oidc/unavailable';
import { databaseUnavailable, RETRY_AFTER_S } from '../db/availability';
import { expirySweepTask } from '../oidc/sweep';
import { postedFormAsQuery } from '../oidc/form-post-endpoints';
import { safeRedirect } from '../http/redirect';
import { Permission } from '../../src/core/permission-codes';
import * as clients from '../services/app-clients';

const tags = ['Single sign-on'];

/** The host and protocol of `origin`, parsed once per origin (it changes only with the
 *  listening address, when no public URL is configured). */
function originParts(): (origin: string) => { host: string; protocol: string } {
  let last: { origin: string; host: string; protocol: string } | undefined;
  return (origin) => {
    if (last?.origin !== origin) {
      const url = new URL(origin);
      last = { origin, host: url.host, protocol: url.protocol.slice(0, -1) };
    }
    return last;
  };
}

/** Hands the request to oidc-provider (a Koa app): its own body parsing, its own answers. */
function mountProvider(app: FastifyInstance, ctx: Ctx, oidc: OidcProvider): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const site = originParts();
    // Koa composes its middleware anew on every callback() call: once per provider instead of
    // once per request.
    const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
    const handlerOf = (provider: Provider) => {
      let handler = handlers.get(provider);
      if (!handler) handlers.set(provider, (handler = provider.callback()));
      return handler;
    };
    /** Hands the request to the provider: `raw`, or the request again when this read its body. */
    const handle = async (request: FastifyRequest, reply: FastifyReply, raw: IncomingMessage & { originalUrl?: string } = request.raw) => {
      const provider = await oidc.get();
      // The provider builds its endpoints' URLs from the request: it sees our public origin, and
      // the client address Fastify believed (a forwarded one only from a trusted proxy).
      const { host, protocol } = site(ctx.site.origin());
      raw.headers.host = host;
      raw.headers['x-forwarded-proto'] = protocol;
      raw.headers['x-forwarded-for'] = request.ip;
      delete raw.headers['x-forwarded-host'];
      // oidc-provider finds its mount path by comparing originalUrl with url.
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '').slice(OIDC_PATH.length) || '/';
      if (await postedFormAsQuery(raw, raw.url.split('?')[0]!)) raw.originalUrl = OIDC_PATH + raw.url;
      reply.hijack();
      await withReadAhead(() => handlerOf(provider)(raw, reply.raw));
    };
    scope.all(`${OIDC_MOUNT}/*`, { schema: { hide: true } }, (request, reply) => handle(request, reply));
    // A confidential app's refresh grant is answered without the provider's pipeline
    // (oidc/refresh-grant.ts); any other token request goes to the provider, with its body again
    // when it was read to tell.
    scope.post(`${OIDC_MOUNT}/token`, { schema: { hide: true } }, async (request, reply) => {
      const grants = await oidc.refreshGrants();
      const credentials = grants.accepts(request.headers);
      if (!credentials) return handle(request, reply);
      // Within the provider's limit (`accepts` checked the length), so read whole.
      const body = (await readBody(request.raw)) ?? Buffer.alloc(0);
      const answer = await withReadAhead(() => grants.answer(credentials, body, request.ip)).catch(unlessUnavailable);
      if (answer === undefined) return handle(request, reply, withBodyAgain(request.raw, body));
      // The provider's token answer: no cache, and the same CORS headers it gives a request without Origin.
      reply
        .header('cache-control', 'no-store')
        .header('vary', 'Origin')
        .header('access-control-allow-origin', '*')
        .header('access-control-expose-headers', 'WWW-Authenticate')
        .type('application/json; charset=utf-8');
      if (!answer) return reply.code(503).header('retry-after', String(RETRY_AFTER_S)).send(JSON.stringify(TEMPORARILY_UNAVAILABLE));
      return reply.code(answer.status).send(JSON.stringify(answer.body));
    });
    // An app's introspection with its secret in the Authorization header is answered without the
    // provider's pipeline (oidc/introspection.ts); any other goes to the provider.
    const introspect = introspection(oidcDb(ctx.db), ctx.engine, () => ctx.site.issuer());
    scope.post(`${OIDC_MOUNT}/token/introspection`, { schema: { hide: true } }, async (request, reply) => {
      const client = await introspect.authenticate(request.headers).catch(unlessUnavailable);
      if (client === undefined) return handle(request, reply);
      const answer = client && (await introspect.answer(client, request.raw).catch(unlessUnavailable));
      reply.header('cache-control', 'no-store').type('application/json; charset=utf-8');
      if (!answer) return reply.code(503).header('retry-after', String(RETRY_AFTER_S)).send(JSON.stringify(TEMPORARILY_UNAVAILABLE));
      return reply.code(answer.status).send(JSON.stringify(answer.body));
    });
  });
}

/** An unreachable database becomes `null` (answered 503 as the provider would); other errors go on. */
function unlessUnavailable(error: unknown): null {
  if (databaseUnavailable(error)) return null;
  throw error;
}

export const ssoRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  const oidc = OidcProvider.of(ctx);
  const db = oidcDb(ctx.db);
  mountProvider(app, ctx, oidc);
  const sweeper = expirySweepTask(db, ctx.now, (error) => app.log.error({ err: error }, 'oidc expiry sweep'));
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', () => sweeper.stop());

  route(app, gate, calls.getSsoInteractionsByUid, {
    tags,
    access: Permission.SelfService,
    summary: 'What an app asks of the signed-in user (the consent page)',
    handler: async ({ actor, params }) => interactionDetails(await oidc.get(), db, params.uid, await consoleSignIn(ctx, actor.sessionId, actor.user)),
  });

  route(app, gate, calls.postSsoInteractionsByUid, {
    tags,
    access: Permission.SelfService,
    summary: 'Allow or deny the app; answers where the browser goes next',
    handler: async ({ actor, params, body, raw }) => ({
      redirectURL: safeRedirect(
        ctx,
        raw,
        await finishInteraction(await oidc.get(), ctx, params.uid, await consoleSignIn(ctx, actor.sessionId, actor.user), body.allow, raw.ip),
      ),
    }),
  });

  route(app, gate, calls.getAppsOidcClient, {
    tags,
    access: Permission.Apps,
    summary: 'The app as an OpenID Connect client (never its secret)',
    handler: ({ actor, params }) => clients.clientOf(ctx, actor, params.appId),
  });

  route(app, gate, calls.putAppsOidcClient, {
    tags,
    access: Permission.Apps,
    summary:
      "Change the app's client: post-logout and back-channel logout URIs, the client_credentials grant, JWT access tokens, trusted (no consent page; platform administrator only)",
    handler: ({ actor, params, body, raw }) => clients.changeClient(ctx, actor, params.appId, body, raw.ip),
  });

  route(app, gate, calls.postAppsOidcClientSecret, {
    tags,
    access: Permission.Apps,
    summary: "Generate (or rotate) the app's client secret: shown in this answer only",
    handler: ({ actor, params, raw }) => clients.rotateSecret(ctx, actor, params.appId, raw.ip),
  });
};
