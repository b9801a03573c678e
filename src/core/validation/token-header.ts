// The header that carries the session token in token mode (the `tokenName` setting, handed to the
// elements in the sign-in answer). A name that browsers, proxies or the server already use for
// something else would mix the token with that header: `cookie` or `user-agent` would be read as
// the token (and logged or forwarded as such), `save-data` or `purpose` sent by the browser on its
// own would sign a cookie session out, `idempotency-key` would store the token as a key,
// `x-forwarded-for` or `cf-ray` would be rewritten by proxies, `sec-*` and `proxy-*` cannot be set by
// scripts at all, hop-by-hop headers are dropped on the way. No list of such headers is ever
// complete, so the name must also say what it carries: it contains `token`, `auth`, `session`,
// `jwt`, `key` or `credential` (`x-iam-token`, `Authorization`, `X-Api-Key`), which the headers
// browsers set on their own never do; the families identity-aware proxies set (Cloudflare Access,
// AWS ALB, Google IAP, Azure App Service, oauth2-proxy, Pomerium, authentik …) and the credential
// headers API gateways add (Kong, WSO2, Vercel, SigV4 proxies) stay reserved.
// Only a plain token name (letters, digits and '-', a letter first; a subset of RFC 7230's token).
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
  // Read by this server for something else (server/http/idempotency.ts, the provider's DPoP,
  // server/auth/gate.ts's token-mode sign-in).
  'idempotency-key',
  'dpop',
  'x-iam-auth-mode',
  // Set by API gateways on the requests they forward (Kong's key-auth and jwt plugins, kong-oidc,
  // WSO2 API Manager, AWS SigV4 signing proxies).
  'x-credential-identifier',
  'x-access-token',
  'x-id-token',
  'x-jwt-assertion',
  'x-userinfo',
  // Set by browsers and the web platform on their own.
  'last-event-id',
  'service-worker',
  'x-requested-with',
  'x-xsrf-token',
]);

/** Families of headers (every name that starts with one of these). */
const RESERVED_PREFIXES = [
  'accept-',
  'access-control-',
  'content-',
  'if-',
  'proxy-',
  'sec-',
  'x-forwarded-',
  'x-original-',
  'x-envoy-',
  'x-amzn-',
  'x-goog-',
  'x-ms-',
  'cf-',
  'x-auth-request-',
  'x-pomerium-',
  'x-authentik-',
  'x-vouch-',
  'x-consumer-',
  'x-kong-',
  'x-amz-',
  'x-vercel-',
  'x-wso2-',
  'service-worker-',
];

/** What the name must contain: it names a credential. */
const CREDENTIAL_WORD = /token|auth|session|jwt|key|credential/;

/** Is this header name one that something else already means (see the top of this file)? */
function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** Does this header name say it carries a credential (see the top of this file)? */
const namesCredential = (name: string) => CREDENTIAL_WORD.test(name.toLowerCase());

/** May a header of this name carry the session token: one the `tokenName` setting accepts. */
export function isTokenHeaderName(name: string): boolean {
  return namesCredential(name) && !isReservedHeaderName(name);
}

/** The `tokenName` setting: a plain header name of our own that says what it carries. */
export const tokenHeaderName = v.pipe(
  v.string('rule.required'),
  v.regex(/^[A-Za-z][A-Za-z0-9-]{0,39}$/, 'rule.tokenName'),
  v.check((name) => !isReservedHeaderName(name), 'rule.tokenNameReserved'),
  v.check(namesCredential, 'rule.tokenNameWord'),
);
