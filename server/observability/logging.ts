// The server's log: one JSON line per event (pino, through Fastify), each request's lines carrying
// its request id (reqId: a well-formed incoming X-Request-Id, else a fresh UUID; sent back in the answer)
// and, when the caller sent a W3C traceparent (the console's tracing switch), its trace and parent
// span ids. Nothing secret is logged: no headers, no bodies, URLs with their query values and
// secret-bearing path parameters masked, and any property named like a secret censored.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';

/** What an incoming X-Request-Id may look like to be kept (a UUID, a ULID, a proxy's hex id, …). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/** A W3C traceparent of version 00: trace id, parent span id, flags. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
/** Path parameters whose values are credentials (one-time codes, tickets, tokens). */
const SECRET_PARAM = /code|token|secret|ticket|key|uid/i;
const MASK = '[redacted]';
/** Path segments that are secrets without being named parameters: the OpenID Connect provider's
 *  interaction ids (/api/oidc/auth/<uid> resumes a sign-in in progress, /device/<uid>, /interaction/<uid>)
 *  and any /interaction(s)/<id> (the identity-provider routes' literal `idp` segment excepted). */
const SECRET_SEGMENT = /(\/oidc\/(?:auth|device)\/|\/interactions?\/)(?!idp(?:\/|$))(?!auth$)[^/]+/g;

const REQUEST_ID_HEADER = 'x-request-id';

function requestId(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The trace and parent span ids of a valid traceparent header (all-zero ids are invalid). */
function traceOf(header: string | string[] | undefined): { traceId: string; spanId: string } | undefined {
  const match = typeof header === 'string' ? TRACEPARENT.exec(header) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return { traceId: match[1]!, spanId: match[2]! };
}

/** The request's URL as logged: secret path parameters and every query value masked. */
function loggedUrl(request: FastifyRequest): string {
  const [path = '', query] = request.url.split('?', 2);
  let shown = path.replace(SECRET_SEGMENT, `$1${MASK}`);
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value && SECRET_PARAM.test(name)) shown = shown.replace(encodeURI(value), MASK).replace(value, MASK);
  }
  if (query === undefined) return shown;
  const keys = [...new URLSearchParams(query).keys()];
  return `${shown}?${keys.map((key) => `${encodeURIComponent(key)}=${MASK}`).join('&')}`;
}

/** Fastify's logging options for `enabled` (false: no log at all). `stream`: where lines go (stdout by default). */
export function loggingOptions(enabled: boolean, stream?: NodeJS.WritableStream): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'childLoggerFactory'> {
  return {
    logger: enabled && {
      level: 'info',
      ...(stream ? { stream } : {}),
      redact: {
        paths: ['password', 'token', 'secret', 'cookie', 'authorization', '*.password', '*.token', '*.secret', '*.cookie', '*.authorization'],
        censor: MASK,
      },
      serializers: {
        req: (request: FastifyRequest) => ({ method: request.method, url: loggedUrl(request), route: request.routeOptions?.url, remoteAddress: request.ip }),
      },
    },
    genReqId: requestId,
    childLoggerFactory(logger: FastifyBaseLogger, bindings, options, raw) {
      const trace = traceOf(raw.headers.traceparent);
      return logger.child(trace ? { ...bindings, ...trace } : bindings, options);
    },
  };
}

/** Every answer names its request id, so a caller can quote it when reporting a problem. */
export function answerWithRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
