// The Fastify application: database, security plugins, the API under /api, the OpenAPI document,
// the built bundle under /dist/, the demo pages under /demo/ and the console page with history fallback.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { resolveConfig, type ServerOptions } from './config';
import { openDatabase } from './db/connect';
import { bootstrap } from './bootstrap';
import { SettingsStore } from './settings';
import { AuditLog } from './audit';
import { SessionService } from './auth/sessions';
import { reportUsernameTwins } from './auth/usernames';
import { createGate, sessionCookieName } from './auth/gate';
import { ApiError, referenceGone, tooMany, unavailable } from './http/errors';
import { isForeignKeyViolation } from './db/errors';
import { databaseUnavailable, RETRY_AFTER_S } from './db/availability';
import { answersSamlDocument } from './saml/endpoints';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './observability/metrics';
import { answerWithRequestId, loggingOptions } from './observability/logging';
import { failure } from './http/envelope';
import { answerLanguage, localizeMessage } from './http/language';
import { PublicOrigin } from './http/public-origin';
import { bundleFiles } from './http/bundle-files';
import { guardJsonBodies } from './http/json-body';
import { warnOfUnfollowedProxyHeaders } from './http/proxy-warnings';
import { closeConnectionsWhileDraining, type Lifecycle } from './http/draining';
import { clientErrorAnswer, frameworkErrorAnswer } from './http/framework-errors';
import type { Ctx } from './context';
import { apiRoutes } from './routes';
import { databaseRateLimitStore } from './http/rate-limit-store';
import { checkAnswers } from './http/answer-check';
import { scimPlugin } from './scim/plugin';
import { keepNoCopies } from './http/no-store';
import { forwardedForWithoutPorts } from './http/forwarded-for';
import { descriptionOnlySchemas, openApiDocument } from './http/openapi';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Ctx;
    /** Whether the process is draining after SIGTERM (server/main.ts sets it). */
    lifecycle: Lifecycle;
  }
}

export type App = FastifyInstance;

const PROVIDER_TOKEN_PATH = '/api/oidc/token';
/** The provider's token endpoint and those under it (/token/introspection, /token/revocation). */
const answersProviderTokens = (url: string) =>
  url.startsWith(PROVIDER_TOKEN_PATH) && (url.length === PROVIDER_TOKEN_PATH.length || '/?'.includes(url[PROVIDER_TOKEN_PATH.length]!));

function errorEnvelope(error: FastifyError | ApiError, request: FastifyRequest) {
  const language = answerLanguage(request.headers['accept-language']);
  if (databaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    error = unavailable();
  }
  if (isForeignKeyViolation(error)) error = referenceGone();
  if (error instanceof ApiError) {
    return { status: error.status, body: failure(error.code, localizeMessage(error.message, language), error.data) };
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error(error);
  return { status, body: failure(status, localizeMessage(status === 500 ? 'Internal Server Error' : error.message, language)) };
}

/** A page's HTML, revalidated on every visit. */
function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
}

/**
 * The demo pages the server takes part in: history.html is the page of every URL under its
 * console's base (deep links, reloads); nonce.html gets a fresh CSP nonce in its header and its
 * inline script and style on every answer.
 */
function demoPages(app: App, demo: string): void {
  const page = (name: string) => (existsSync(join(demo, name)) ? readFileSync(join(demo, name), 'utf8') : undefined);
  const historyPage = page('history.html');
  if (historyPage !== undefined) {
    for (const url of ['/demo/history', '/demo/history/*']) app.get(url, { schema: { hide: true } }, (_request, reply) => sendPage(reply, historyPage));
  }
  const noncePage = page('nonce.html');
  if (noncePage !== undefined) {
    app.get('/demo/nonce.html', { schema: { hide: true } }, (_request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const policy = [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        `style-src 'self' 'nonce-${nonce}'`,
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'self'",
      ].join('; ');
      // Replaces the strict policy the security hook set for every answer.
      return sendPage(reply.header('content-security-policy', policy), noncePage.replaceAll('{{nonce}}', nonce));
    });
  }
}

export async function buildApp(options: ServerOptions = {}): Promise<App> {
  const config = resolveConfig(options);
  const db = await openDatabase(config);
  const now = () => config.clock.now();
  await bootstrap(db.kysely, config, now());
  const settings = new SettingsStore(db.kysely, now);
  const ctx: Ctx = {
    db: db.kysely,
    engine: db.engine,
    config,
    settings,
    now,
    audit: new AuditLog(db.kysely, now, db.unitOfWork),
    sessions: new SessionService(db.kysely, db.engine, settings, now, db.readRows),
    site: new PublicOrigin(
      config,
      () => app.server.address(),
      (message) => app.log.warn(message),
    ),
  };

  // helmet's middleware is built once here and run by one hook: @fastify/helmet builds it again on
  // every request (two hooks, one of them async), a fixed cost on every answer.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'frame-ancestors': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  // A JSON answer is no document: it loads nothing, opens no window and is never rendered
  // (nosniff), so the headers that only a page uses (opener and agent-cluster policies, DNS
  // prefetch) or that only obsolete browsers read (IE's download options and XSS filter, Flash's
  // cross-domain policies) are left out, and its policy drops the sources only a page loads (every
  // directive as strict as the page's or stricter). About 300 bytes less on every API answer.
  const apiSecurityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'self'"],
        'object-src': ["'none'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  /** The API's JSON answers (not the OpenID provider's pages under /api/oidc/ nor the SAML
   *  endpoints that answer the HTTP-POST binding's page: documents), and the provider's token
   *  endpoints (grants, introspection, revocation), which only ever answer JSON to an app. */
  const answersJson = (url: string) =>
    (url.startsWith('/api/') && !url.startsWith('/api/oidc/') && !answersSamlDocument(url)) || url.startsWith('/scim/') || answersProviderTokens(url);
  // X-Forwarded-* count only when the socket's peer is one of the configured proxies. Answers
  // Fastify and Node give before our hooks run are the envelope with the security headers too.
  const app = Fastify({
    ...loggingOptions(config.logger, config.logStream),
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    bodyLimit: 256 * 1024,
    frameworkErrors: frameworkErrorAnswer(securityHeaders),
    clientErrorHandler: clientErrorAnswer(securityHeaders),
    // Node would answer an HTTP/1.1 request without Host itself, a bare 400 with none of our
    // headers; the hook below answers it in the envelope instead.
    http: { requireHostHeader: false },
    // Requests are validated by the shared valibot schemas inside each route (see http/route.ts);
    // the JSON Schemas Fastify holds are their OpenAPI description only. Given here, Fastify does
    // not load its own compilers (ajv, fast-json-stringify) at all.
    schemaController: { compilersFactory: descriptionOnlySchemas },
    // A request that arrives while close() waits for the last ones is served like any other (with
    // `Connection: close`), not refused with Fastify's plain-text 503: it was sent to this process
    // before the proxy learnt that it stops (server/http/draining.ts).
    return503OnClosing: false,
  });
  app.decorate('ctx', ctx);
  const lifecycle: Lifecycle = { draining: false };
  app.decorate('lifecycle', lifecycle);
  closeConnectionsWhileDraining(app, lifecycle);
  warnOfUnfollowedProxyHeaders(app);
  if (config.trustProxy.length) forwardedForWithoutPorts(app);
  // The private targets the server may call (server/http/outbound-address.ts), said once at start.
  if (config.unusedPgVariables.length) {
    app.log.warn(
      `${config.unusedPgVariables.join(', ')} set without DATABASE_URL: this server runs on SQLite (${config.dataDir}/iam.sqlite); set DATABASE_URL=postgres:// to use PostgreSQL with them (docs/deployment.md, "DATABASE_URL")`,
    );
  }
  if (config.outboundAllow.length) app.log.info(`outbound requests may reach these private targets: ${config.outboundAllow.join(', ')} (IAM_OUTBOUND_ALLOW)`);
  if (config.outboundAllowPrivate) {
    app.log.warn('IAM_OUTBOUND_ALLOW_PRIVATE=1 is deprecated: every loopback and private address may be called; list them in IAM_OUTBOUND_ALLOW instead');
  }
  answerWithRequestId(app);
  app.addHook('onClose', () => db.close());
  guardJsonBodies(app);
  if (config.checkAnswers) checkAnswers(app);
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const { status, body } = errorEnvelope(error, request);
    if (status === 503) reply.header('retry-after', String(RETRY_AFTER_S));
    return reply.status(status).send(body);
  });

  await app.register(cookie);
  app.addHook('onRequest', (request, reply, done) =>
    (answersJson(request.url) ? apiSecurityHeaders : securityHeaders)(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  // A NUL character has no use in any URL here, and PostgreSQL cannot store it: refused before
  // routing (after the security headers, which every answer carries).
  app.addHook('onRequest', (request, _reply, done) => done(/%00/.test(request.url) ? new ApiError(400, 'The URL contains a NUL character (%00)') : undefined));
  // HTTP/1.1 requires a Host header (RFC 9112 §3.2); HTTP/1.0 may leave it out and is answered.
  app.addHook('onRequest', (request, _reply, done) =>
    done(request.headers.host === undefined && request.raw.httpVersion !== '1.0' ? new ApiError(400, 'The request has no Host header') : undefined),
  );
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && config.corsOrigins.includes(origin)),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  // Counted in the database: every process on it counts the same hits.
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(db.kysely, now),
    errorResponseBuilder: (_request, context) => tooMany(`Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });
  const openApi = openApiDocument(app, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'iam-console API', version: '1.0.0', description: 'Every answer is the envelope {code, message, data}; code 0 on success.' },
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: sessionCookieName(config) },
          sessionToken: { type: 'apiKey', in: 'header', name: 'token' },
        },
      },
    },
  });

  metricsRoutes(app, ctx);
  await app.register(healthRoutes, { db, lifecycle, hide: true });
  const gate = createGate(ctx);
  await app.register(
    async (api) => {
      keepNoCopies(api);
      apiRoutes(api, gate, ctx);
      void api.register(healthRoutes, { db, lifecycle });
      api.get('/openapi.json', { schema: { hide: true } }, openApi);
    },
    { prefix: '/api' },
  );
  await app.register(scimPlugin, { prefix: '/scim/v2', ctx });

  const { dist, demo, publicDir } = config.staticRoots;
  if (existsSync(dist)) await app.register(bundleFiles, { root: dist });
  if (existsSync(demo)) {
    await app.register(fastifyStatic, { root: demo, prefix: '/demo/', decorateReply: false });
    demoPages(app, demo);
  }
  // The console page's own files (its stylesheet) under /public/; the page itself is served below.
  await app.register(fastifyStatic, { root: publicDir, prefix: '/public/', decorateReply: false, index: false, allowedPath: (path) => path !== '/index.html' });
  const consolePage = readFileSync(join(publicDir, 'index.html'), 'utf8');
  const sendConsole = (reply: FastifyReply) => sendPage(reply, consolePage);
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendConsole(reply));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const api = path.startsWith('/api/') || path === '/api';
    // History fallback: any other GET for a route (no file extension) gets the console page.
    if (!api && (request.method === 'GET' || request.method === 'HEAD') && !/\.[a-z0-9]+$/i.test(path)) return sendConsole(reply);
    return reply.status(404).send(failure(404, localizeMessage('Not Found', answerLanguage(request.headers['accept-language']))));
  });

  await reportUsernameTwins(db.kysely, db.engine, app.log);
  return app;
}
