// How a route file registers an API call: `route(app, gate, call, spec)` takes the call's one
// declaration (src/core/contract: method, path, schemas) and adds what only the server knows (access
// rule, summary, tags, rate limit, the handler, whose return type is the declared answer's). The
// schemas validate the request (400 naming each field and its rule.* key), describe the call in the
// OpenAPI document and cut the answer to what the contract declares (answer-cut.ts).
// `linkRoute(app, gate, link, spec)` registers a link (a GET answering a redirect, a download, an
// image or a page instead of the envelope) the same way; its handler sends the answer itself, whose
// media type the declaration names for the OpenAPI document.
// `bindingRoute(app, gate, binding, spec)` registers a protocol binding's endpoint (a GET or a form
// POST another site's page sends the browser to): no session from the gate, no CSRF check, its
// parameters documented and read by the handler as sent.
// `defineRoute` is the same registration with method, url and schemas written in the spec itself.
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { validate } from '../../src/core/validation';
import { ok } from './envelope';
import { ApiError, fieldError } from './errors';
import type { RateLimit } from '../config';
import type { Actor } from '../auth/actor';
import type { Ctx } from '../context';
import { withSettingsSnapshot } from '../settings';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEPT_MS, idempotencyKeyOf, onceFor, REPLAYED_HEADER } from './idempotency';
import { Permission } from '../../src/core/permission-codes';
import type { FieldRulesMode } from '../../src/core/validation/field-rules';
import { underFieldRules } from '../field-rules-scope';
import type { BindingDeclaration, CallDeclaration, HandlerAnswer, LinkAnswer, LinkDeclaration } from '../../src/core/contract/declare';
import { cutTo } from './answer-cut';

/** public: anyone; otherwise a signed-in, enabled user holding the permission code (see the
 *  `Permission` map of src/core/permission-codes.ts). */
type Access = 'public' | Permission;

type Schema = v.GenericSchema;
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined;

export interface ApiRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  actor: Actor | null;
  raw: FastifyRequest;
}

interface SignedInRequest<B, Q, P> extends ApiRequest<B, Q, P> {
  actor: Actor;
}

interface BaseSpec<B, Q, P> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  summary: string;
  tags: string[];
  body?: B;
  /** How the body is documented when `body` cannot say it itself (a lazy schema). */
  bodyDoc?: Schema;
  query?: Q;
  params?: P;
  /** The schema of the envelope's `data`: documented, and checked in tests (http/answer-check.ts). */
  response?: Schema;
  rateLimit?: RateLimit;
  /** Handlers that answer something other than JSON (a redirect, images, files) send it themselves. */
  answers?: LinkAnswer | readonly LinkAnswer[];
  /** A protocol binding's endpoint (BindingDeclaration): its parameters in the query (GET) or a posted
   *  form (POST), documented only (the handler reads them as sent); no session from the gate and no
   *  CSRF check (another site's page sends the browser here by design). */
  binding?: { fields?: Schema };
  /** multipart/form-data upload (documented as such; the handler reads the parts). */
  multipart?: boolean;
  /** A create that honours an `Idempotency-Key` header (server/http/idempotency.ts). Not for calls
   *  whose answer holds a secret shown once: it would be kept for the replay. */
  idempotent?: true;
}

export interface PublicSpec<B, Q, P> extends BaseSpec<B, Q, P> {
  access: 'public';
  appToken?: undefined;
  handler(req: ApiRequest<Out<B>, Out<Q>, Out<P>>, reply: FastifyReply): Promise<unknown>;
}

export interface SignedInSpec<B, Q, P> extends BaseSpec<B, Q, P> {
  access: Permission;
  appToken?: undefined;
  handler(req: SignedInRequest<Out<B>, Out<Q>, Out<P>>, reply: FastifyReply): Promise<unknown>;
}

/** Signed in with `access`, or called by an app with an access token our provider issued to it
 *  (`Authorization: Bearer`, or `DPoP` with a proof for a bound token): the handler checks that token, and `actor` is null then. */
export interface AppTokenSpec<B, Q, P> extends BaseSpec<B, Q, P> {
  access: Permission;
  appToken: true;
  handler(req: ApiRequest<Out<B>, Out<Q>, Out<P>>, reply: FastifyReply): Promise<unknown>;
}

/** Whether the request carries an `Authorization: Bearer` or `DPoP` token (an app's, for AppTokenSpec). */
export const carriesBearer = (request: FastifyRequest) => /^(Bearer|DPoP) /i.test(request.headers.authorization ?? '');

/** Finds the caller (session) and enforces CSRF; supplied by the auth module. */
export interface Gate {
  authenticate(req: FastifyRequest): Promise<Actor | null>;
  checkCsrf(req: FastifyRequest, actor: Actor | null): void;
  /** The field rules the login settings choose (server/field-rules-scope.ts). */
  fieldRules(): Promise<FieldRulesMode>;
}

/** What a route file (a Fastify plugin registered under /api by server/routes/index.ts) is given. */
export interface RouteOptions {
  gate: Gate;
  ctx: Ctx;
}

function toDoc(schema: Schema): Record<string, unknown> {
  return toJsonSchema(schema, { target: 'openapi-3.0', errorMode: 'ignore' }) as Record<string, unknown>;
}

const permissionName = (code: Permission) => Object.entries(Permission).find(([, value]) => value === code)?.[0];

const envelopeDoc = (data: Record<string, unknown>) => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
});

const errorDoc = (description: string) => ({ description, ...envelopeDoc({}) });

function parse<S extends Schema | undefined>(schema: S, input: unknown): Out<S> {
  if (!schema) return undefined as Out<S>;
  const result = validate(schema, input ?? {});
  if (!result.success) throw fieldError(result.fields);
  return result.output as Out<S>;
}

function documentation(spec: BaseSpec<unknown, unknown, unknown> & { access: Access; appToken?: boolean }): FastifySchema {
  const schema: Record<string, unknown> = {
    summary: spec.summary,
    tags: spec.tags,
    description: spec.binding
      ? `${CROSS_SITE_DOC} No session, no CSRF check: what the request carries (a signed message, a sign-out chain's cookie) is checked.`
      : spec.access === 'public'
        ? 'No sign-in needed.'
        : `Needs permission code ${spec.access} (${permissionName(spec.access)})${spec.appToken ? ", or an app's access token (Authorization: Bearer, or DPoP with a proof)" : ''}.`,
    ...(spec.access === 'public' ? {} : { security: [{ sessionCookie: [] }, { sessionToken: [] }] }),
  };
  if (spec.body) schema.body = toDoc((spec.bodyDoc ?? spec.body) as Schema);
  if (spec.multipart) {
    schema.consumes = ['multipart/form-data'];
    schema.body = { type: 'object', properties: { file: { type: 'string', format: 'binary' }, kind: { type: 'string' } } };
  }
  if (spec.query) schema.querystring = toDoc(spec.query as Schema);
  const fields = spec.binding?.fields;
  if (fields && spec.method === 'GET') schema.querystring = toDoc(fields);
  if (fields && spec.method !== 'GET') {
    schema.consumes = ['application/x-www-form-urlencoded'];
    schema.body = toDoc(fields);
  }
  if (spec.idempotent) {
    schema.headers = {
      type: 'object',
      properties: {
        [IDEMPOTENCY_HEADER]: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description: `Optional. The same key and the same request within ${IDEMPOTENCY_KEPT_MS / 3_600_000} h answer the first success again (header ${REPLAYED_HEADER}: true) instead of creating twice; the key with another request answers 422. Keys are per caller; refusals and 5xx answers are not kept (nothing was created), so a retry runs again.`,
        },
      },
    };
  }
  if (spec.params) schema.params = toDoc(spec.params as Schema);
  const answers = spec.answers === undefined ? [] : typeof spec.answers === 'string' ? [spec.answers] : spec.answers;
  const redirect = answers.includes('redirect') && {
    // A protocol binding answers 303 (See Other: a posted form is not posted again), a link 302.
    [spec.binding ? 303 : 302]: { description: 'A redirect: the Location header says where', type: 'null', headers: { Location: { type: 'string' } } },
  };
  const media = answers.find((answer) => answer !== 'redirect');
  const success = answers.length
    ? { ...redirect, ...(media && { 200: { description: media, content: { [media]: { schema: { type: 'string', format: 'binary' } } } } }) }
    : { 200: { description: 'Success', ...envelopeDoc(spec.response ? toDoc(spec.response) : {}) } };
  schema.response = {
    ...success,
    400: errorDoc('Invalid input: data.fields names each field and its rule.* key'),
    ...(spec.access === 'public' ? {} : { 401: errorDoc('Not signed in'), 403: errorDoc('Not permitted') }),
    ...(spec.idempotent
      ? { 409: errorDoc('A request with this Idempotency-Key is still running'), 422: errorDoc('This Idempotency-Key was used with a different request') }
      : {}),
  };
  return schema;
}

const permissionDenied = () => new ApiError(403, 'No Authenticated');

/** How the OpenAPI document marks a protocol binding's endpoint, which other sites' pages reach by
 *  design (the CSRF tests read it). */
export const CROSS_SITE_DOC = 'Cross-site by design (a protocol binding).';

export function defineRoute<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, P extends Schema | undefined = undefined>(
  app: FastifyInstance,
  gate: Gate,
  spec: PublicSpec<B, Q, P> | SignedInSpec<B, Q, P> | AppTokenSpec<B, Q, P>,
): void {
  app.route({
    method: spec.method,
    url: spec.url,
    // The route's OpenAPI description is built when /api/openapi.json is first asked for (by
    // @fastify/swagger's per-route transform), not at every start.
    schema: { summary: spec.summary, tags: spec.tags },
    config: {
      ...(spec.rateLimit ? { rateLimit: spec.rateLimit } : {}),
      answer: spec.response,
      swaggerTransform: ({ url }: { url: string }) => ({
        url,
        schema: documentation(spec as BaseSpec<unknown, unknown, unknown> & { access: Access; appToken?: boolean }),
      }),
    },
    handler: (request, reply) =>
      withSettingsSnapshot(async () => {
        // A protocol binding takes no session from the gate and is reached from other sites by design.
        const actor = spec.binding ? null : await gate.authenticate(request);
        if (!spec.binding) gate.checkCsrf(request, actor);
        if (spec.access !== 'public' && !(spec.appToken && carriesBearer(request))) {
          if (!actor) throw new ApiError(401, 'Authorization Error');
          if (!actor.permissions.includes(spec.access)) throw permissionDenied();
        }
        // A body or an upload is checked, and the work it starts (an import job) runs, under the
        // field rules in force.
        const mode = spec.body || spec.multipart ? await gate.fieldRules() : undefined;
        const work = async () => {
          const req = {
            params: parse(spec.params, request.params),
            query: parse(spec.query, request.query),
            body: spec.multipart ? undefined : parse(spec.body, request.body),
            actor,
            raw: request,
          };
          return (spec.handler as (r: typeof req, reply: FastifyReply) => Promise<unknown>)(req, reply);
        };
        const answer = async () => {
          const data = mode ? await underFieldRules(mode, work) : await work();
          return spec.answers ? reply : ok(data ?? null);
        };
        const key = spec.idempotent ? idempotencyKeyOf(request) : undefined;
        // Keyed per caller: a signed-in person (an app's token has no key of its own here).
        const result = key !== undefined && actor ? await onceFor(request.server.ctx, request, reply, actor.id, key, answer) : await answer();
        // Set once the answer succeeded (a replayed one included): only what the schema declares is written.
        // A serializer of our own leaves the content type to us (Fastify sets it only for its own).
        if (spec.response && !spec.answers) reply.serializer(cutTo(spec.response)).type('application/json; charset=utf-8');
        return result;
      }),
  });
}

type Out2<C extends CallDeclaration> = [Out<C['body']>, Out<C['query']>, Out<C['params']>];
type Answer<C extends CallDeclaration> = Promise<HandlerAnswer<C>>;

/** What a route adds to its call's declaration: everything but method, path and schemas. The
 *  handler must answer the declared response's input type. */
export type CallSpec<C extends CallDeclaration> = Omit<
  BaseSpec<never, never, never>,
  'method' | 'url' | 'body' | 'query' | 'params' | 'response' | 'multipart'
> &
  (
    | { access: 'public'; appToken?: undefined; handler(req: ApiRequest<Out2<C>[0], Out2<C>[1], Out2<C>[2]>, reply: FastifyReply): Answer<C> }
    | { access: Permission; appToken?: undefined; handler(req: SignedInRequest<Out2<C>[0], Out2<C>[1], Out2<C>[2]>, reply: FastifyReply): Answer<C> }
    | { access: Permission; appToken: true; handler(req: ApiRequest<Out2<C>[0], Out2<C>[1], Out2<C>[2]>, reply: FastifyReply): Answer<C> }
  );

/** Registers `call` (its declaration in src/core/contract) with what only the server knows. */
export function route<C extends CallDeclaration>(app: FastifyInstance, gate: Gate, call: C, spec: CallSpec<C>): void {
  defineRoute(app, gate, {
    ...(spec as PublicSpec<Schema, Schema, Schema>),
    method: call.method,
    url: call.path,
    params: call.params,
    query: call.query,
    body: call.body,
    response: call.response,
    multipart: call.multipart,
  });
}

/** What a route adds to its link's declaration: access, summary, tags, rate limit, and the handler,
 *  which sends the answer (a redirect, a file, an image, a page) itself. */
export type LinkSpec<L extends LinkDeclaration> = Pick<BaseSpec<never, never, never>, 'summary' | 'tags' | 'rateLimit'> &
  (
    | { access: 'public'; handler(req: ApiRequest<undefined, Out<L['query']>, Out<L['params']>>, reply: FastifyReply): Promise<unknown> }
    | { access: Permission; handler(req: SignedInRequest<undefined, Out<L['query']>, Out<L['params']>>, reply: FastifyReply): Promise<unknown> }
  );

/** Registers `link` (its declaration in src/core/contract) with what only the server knows. */
export function linkRoute<L extends LinkDeclaration>(app: FastifyInstance, gate: Gate, link: L, spec: LinkSpec<L>): void {
  defineRoute(app, gate, {
    ...(spec as PublicSpec<undefined, Schema, Schema>),
    method: link.method,
    url: link.path,
    params: link.params,
    query: link.query,
    answers: link.answers,
  });
}

/** What a route adds to its binding's declaration: summary, tags, rate limit, and the handler, which
 *  reads the protocol's parameters as sent and answers (a redirect or a page) itself. */
export type BindingSpec<B extends BindingDeclaration> = Pick<BaseSpec<never, never, never>, 'summary' | 'tags' | 'rateLimit'> & {
  handler(req: ApiRequest<undefined, undefined, Out<B['params']>>, reply: FastifyReply): Promise<unknown>;
};

/** Registers `binding` (its declaration in src/core/contract) with what only the server knows. */
export function bindingRoute<B extends BindingDeclaration>(app: FastifyInstance, gate: Gate, binding: B, spec: BindingSpec<B>): void {
  defineRoute(app, gate, {
    ...(spec as unknown as PublicSpec<undefined, undefined, Schema>),
    access: 'public',
    method: binding.method,
    url: binding.path,
    params: binding.params,
    answers: binding.answers,
    binding: { fields: binding.fields },
  });
}
