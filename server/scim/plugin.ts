// SCIM 2.0 (RFC 7643/7644) at /scim/v2, beside /api (server/app.ts): a tenant's provisioning client
// (Entra ID, Okta, …) creates, updates, deactivates and deletes its users and groups with a bearer
// token made in the console (server/services/scim-tokens.ts). Every answer is application/scim+json;
// every failure a SCIM error (server/scim/errors.ts); calls are counted per token (rate limit).
// Outside the OpenAPI document of /api: these calls speak SCIM, not the envelope.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { addGuardedJsonParser } from '../http/json-body';
import { keepNoCopies } from '../http/no-store';
import { RETRY_AFTER_S } from '../db/availability';
import { scimTokenOf } from '../services/scim-tokens';
import { scimCaller, type ScimCaller } from './caller';
import { errorBody, SCIM_TYPE, ScimError, scimErrorOf } from './errors';
import { readQuery } from './listing';
import { SCIM_BASE } from './base';
import { lazy } from '../lazy';
import type * as Protocol from './protocol';

const protocol = lazy(() => import('./protocol'));

/** Runs `work` with the protocol module (loaded on the first call). */
async function scim<T>(work: (loaded: typeof Protocol) => Promise<T>): Promise<T> {
  const loaded = await protocol();
  return loaded.scimmyErrorsRead(() => work(loaded));
}

/** Provisioning bodies are small; a group PATCH adding a thousand members still fits. */
const MAX_SCIM_BODY = 128 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    scim: ScimCaller | null;
  }
}

const send = (reply: FastifyReply, status: number, body?: unknown) =>
  body === undefined ? reply.status(status).send() : reply.status(status).type(SCIM_TYPE).send(JSON.stringify(body));

/** A created resource's Location header (RFC 7644 §3.3), whatever attributes the answer was cut to. */
const locationOf = (ctx: Ctx, endpoint: '/Users' | '/Groups', created: { id?: unknown }) => `${ctx.site.origin()}${SCIM_BASE}${endpoint}/${String(created.id)}`;

const callerOf = (request: FastifyRequest): ScimCaller => {
  if (!request.scim) throw new ScimError(401, undefined, 'A SCIM token is required');
  return request.scim;
};

const bearerSecret = (request: FastifyRequest) => /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];

export const scimPlugin: FastifyPluginAsync<{ ctx: Ctx }> = async (app, { ctx }) => {
  // JSON only (RFC 7644 §3.1: application/scim+json, and application/json which clients also send);
  // any other media type is a 415.
  app.removeAllContentTypeParsers();
  addGuardedJsonParser(app, 'application/scim+json');
  addGuardedJsonParser(app, 'application/json');
  app.decorateRequest('scim', null);
  // People, groups and their addresses, and errors about them: kept by no cache.
  keepNoCopies(app);

  app.setErrorHandler((error, request, reply) => {
    const known = scimErrorOf(error);
    if (!known) request.log.error(error);
    const answer = known ?? new ScimError(500, undefined, 'Internal Server Error');
    if (answer.status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
    if (answer.status === 503) reply.header('retry-after', String(RETRY_AFTER_S));
    return send(reply, answer.status, errorBody(answer));
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, errorBody(new ScimError(404, undefined, `No SCIM endpoint ${request.method} ${request.url.split('?')[0]}`))),
  );

  const { max, timeWindow } = ctx.config.rateLimits.scim;
  const limit = app.createRateLimit({ max, timeWindow, keyGenerator: (request) => `scim-token ${callerOf(request).tokenId}` });
  app.addHook('onRequest', async (request, reply) => {
    const secret = bearerSecret(request);
    const token = secret ? await scimTokenOf(ctx, secret) : undefined;
    if (!token) throw new ScimError(401, undefined, secret ? 'The SCIM token is unknown or revoked' : 'A SCIM token is required (Authorization: Bearer)');
    request.scim = scimCaller(token, request.ip);
    const counted = await limit(request);
    if (!counted.isAllowed && counted.isExceeded) {
      reply.header('retry-after', String(counted.ttlInSeconds));
      throw new ScimError(429, undefined, `Too many requests for this token; retry in ${counted.ttlInSeconds} s`);
    }
  });

  const route = { schema: { hide: true }, bodyLimit: MAX_SCIM_BODY };
  type Params = { Params: { id: string } };

  app.get('/ServiceProviderConfig', route, async (_request, reply) => send(reply, 200, await scim(({ discovery }) => discovery.serviceProviderConfig())));
  app.get('/ResourceTypes', route, async (_request, reply) => send(reply, 200, await scim(({ discovery }) => discovery.resourceTypes())));
  app.get<Params>('/ResourceTypes/:id', route, async (request, reply) =>
    send(reply, 200, await scim(({ discovery }) => discovery.resourceTypes(request.params.id))),
  );
  app.get('/Schemas', route, async (_request, reply) => send(reply, 200, await scim(({ discovery }) => discovery.schemas())));
  app.get<Params>('/Schemas/:id', route, async (request, reply) => send(reply, 200, await scim(({ discovery }) => discovery.schemas(request.params.id))));

  app.get('/Users', route, async (request, reply) => {
    const list = await scim(({ users }) => users.listUsers(ctx, callerOf(request), readQuery(request.query)));
    return send(reply, 200, list);
  });
  app.post('/Users', route, async (request, reply) => {
    const created = await scim(({ users }) => users.createUser(ctx, callerOf(request), request.body, readQuery(request.query)));
    return send(reply.header('location', locationOf(ctx, '/Users', created)), 201, created);
  });
  app.get<Params>('/Users/:id', route, async (request, reply) => {
    const user = await scim(({ users }) => users.getUser(ctx, callerOf(request), request.params.id, readQuery(request.query)));
    return send(reply, 200, user);
  });
  app.put<Params>('/Users/:id', route, async (request, reply) => {
    const user = await scim(({ users }) => users.replaceUser(ctx, callerOf(request), request.params.id, request.body, readQuery(request.query)));
    return send(reply, 200, user);
  });
  app.patch<Params>('/Users/:id', route, async (request, reply) => {
    const user = await scim(({ users }) => users.patchUser(ctx, callerOf(request), request.params.id, request.body, readQuery(request.query)));
    return send(reply, 200, user);
  });
  app.delete<Params>('/Users/:id', route, async (request, reply) => {
    await scim(({ users }) => users.deleteUser(ctx, callerOf(request), request.params.id));
    return send(reply, 204);
  });

  app.get('/Groups', route, async (request, reply) => {
    const list = await scim(({ groups }) => groups.listGroups(ctx, callerOf(request), readQuery(request.query)));
    return send(reply, 200, list);
  });
  app.post('/Groups', route, async (request, reply) => {
    const created = await scim(({ groups }) => groups.createGroup(ctx, callerOf(request), request.body, readQuery(request.query)));
    return send(reply.header('location', locationOf(ctx, '/Groups', created)), 201, created);
  });
  app.get<Params>('/Groups/:id', route, async (request, reply) => {
    const group = await scim(({ groups }) => groups.getGroup(ctx, callerOf(request), request.params.id, readQuery(request.query)));
    return send(reply, 200, group);
  });
  app.put<Params>('/Groups/:id', route, async (request, reply) => {
    const group = await scim(({ groups }) => groups.replaceGroup(ctx, callerOf(request), request.params.id, request.body, readQuery(request.query)));
    return send(reply, 200, group);
  });
  app.patch<Params>('/Groups/:id', route, async (request, reply) => {
    await scim(({ groups }) => groups.patchGroup(ctx, callerOf(request), request.params.id, request.body));
    return send(reply, 204);
  });
  app.delete<Params>('/Groups/:id', route, async (request, reply) => {
    await scim(({ groups }) => groups.deleteGroup(ctx, callerOf(request), request.params.id));
    return send(reply, 204);
  });
};
