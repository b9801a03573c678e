// The header that carries the session token in token mode (the `tokenName` setting, handed to the
// elements in the sign-in answer). A name that browsers, proxies or the server already use for
// something else would mix the token with that header: `cookie` or `user-agent` would be read as
// the token (and logged or forwarded as such), `x-forwarded-for` or `forwarded` would be rewritten by
// proxies, `sec-*` and `proxy-*` cannot be set by scripts at all, hop-by-hop headers are dropped on
// the way. Only a plain token name (letters, digits and '-', a letter first; a subset of RFC 7230's
// token) that is none of those is allowed; `authorization` and custom `x-…` names stay allowed.
import * as v from 'valibot';

/** Standard request headers with a meaning of their own, hop-by-hop headers, and those the
 *  server, its proxies and tracing read (lower case). */
const RESERVED = new Set([
  'accept',
  'cache-control',
  'connection',
  'cookie',
  'date',
  'dnt',
  'expect',
  'forwarded',
  'from',
  'host',
  'keep-alive',
  'max-forwards',
  'origin',
  'pragma',
  'priority',
  'range',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'upgrade-insecure-requests',
  'user-agent',
  'via',
  'warning',
  'early-data',
  'http2-settings',
  'x-request-id',
  'x-correlation-id',
  'x-real-ip',
  'x-client-ip',
  'x-http-method-override',
  'x-csrf-token',
  'x-xsrf-token',
  'true-client-ip',
  'cf-connecting-ip',
  'traceparent',
  'tracestate',
  'baggage',
]);

/** Families of headers (every name that starts with one of these). */
const RESERVED_PREFIXES = ['accept-', 'access-control-', 'content-', 'if-', 'proxy-', 'sec-', 'x-forwarded-'];

/** Is this header name one that something else already means (see the top of this file)? */
export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** The `tokenName` setting: a plain header name of our own. */
export const tokenHeaderName = v.pipe(
  v.string('rule.required'),
  v.regex(/^[A-Za-z][A-Za-z0-9-]{0,39}$/, 'rule.tokenName'),
  v.check((name) => !isReservedHeaderName(name), 'rule.tokenNameReserved'),
);
