// Single sign-on for the apps (our OpenID Connect provider): the consent page's calls and the
// apps' client secrets.
import * as v from 'valibot';
import { rules } from '../validation';
import type { ValueOf } from '../enums';

/** An app as an OpenID Connect client (server/oidc/clients.ts): a server app that proves itself
 *  with its secret, or a single-page or native app that cannot keep one (no secret, PKCE only).
 *  Kept here rather than in enums.ts, whose objects all reach the sign-in bundle. */
export const ClientType = {
  Confidential: 'confidential',
  Public: 'public',
} as const;
export type ClientType = ValueOf<typeof ClientType>;

/** oidc-provider's interaction ids: url-safe text. */
export const interactionParams = v.object({ uid: v.pipe(v.string('rule.required'), v.regex(/^[\w-]{10,100}$/, 'rule.uid')) });

/** What an app asks of the signed-in user on the consent page. */
export const interaction = v.object({
  uid: v.string(),
  clientId: v.string(),
  clientName: v.string(),
  scopes: v.array(v.string()),
  /** 'login' or 'consent'. */
  prompt: v.string(),
  /** A trusted app (marked by the platform administrator): the page allows it without asking. */
  trusted: v.boolean(),
  /** The app asks for a fresh sign-in (prompt=login, max_age): allowing it signs the person out
   *  first, and the sign-in page brings them back. */
  signInAgain: v.boolean(),
});

export const consentBody = v.object({ allow: v.boolean('rule.required') });

/** Where the browser goes next (back to the provider, which redirects to the app). */
export const consentAnswer = v.object({ redirectURL: v.string() });

const clientType = v.picklist(Object.values(ClientType), 'rule.clientType');

export const clientStatus = v.object({
  clientId: v.string(),
  /** 'confidential' (a server app with a secret) or 'public' (a single-page or native app: no
   *  secret, PKCE, shorter-lived refresh tokens, its redirect URIs' origins may call the provider). */
  clientType,
  issuer: v.string(),
  /** The app's callback URLs (the only redirect URIs the provider accepts for it). */
  redirectUris: v.array(v.string()),
  /** Where the app may send the browser after RP-initiated logout (post_logout_redirect_uri). */
  postLogoutRedirectUris: v.array(v.string()),
  /** A confidential client with its secret (a public client never has one). */
  hasSecret: v.boolean(),
  rotatedAt: v.nullable(v.number()),
  /** The app's machines may get tokens with the client_credentials grant. */
  clientCredentials: v.boolean(),
  /** A trusted app: the person is not asked to consent (set by the platform administrator only). */
  trusted: v.boolean(),
  /** Where the provider posts a signed logout token when the person's access ends (back-channel logout). */
  backchannelLogoutUri: v.nullable(v.string()),
  /** Tokens for the app's own resource are JWTs (verifiable with the JWKS) instead of opaque. */
  jwtAccessTokens: v.boolean(),
});

/** The one answer that carries the client secret: right after it is generated. */
export const clientSecretAnswer = v.object({ clientId: v.string(), clientSecret: v.string(), issuer: v.string() });

/** At most this many post-logout redirect URIs per app. */
const MAX_POST_LOGOUT_URIS = 10;

/** A logout URI: an http(s) URL like the callback URLs, without a fragment. */
const logoutUri = v.pipe(
  rules.url,
  v.maxLength(2000, 'rule.url'),
  v.check((url) => !/[#,]/.test(url), 'rule.url'),
);

/** Post-logout redirect URIs: http(s) URLs like the callback URLs, without a fragment (nor a comma,
 *  which separates stored URLs). */
const postLogoutUrisBody = v.object({
  postLogoutRedirectUris: v.pipe(v.array(logoutUri, 'rule.required'), v.maxLength(MAX_POST_LOGOUT_URIS, 'rule.url')),
});

/** A change of the app's OIDC client: only the settings given are changed. Switching to public
 *  revokes the secret (and machine access and trust, which need one); back to confidential, the
 *  client works again once a new secret is generated. */
export const oidcClientBody = v.object({
  clientType: v.optional(clientType),
  ...v.partial(postLogoutUrisBody).entries,
  clientCredentials: v.optional(v.boolean('rule.required')),
  trusted: v.optional(v.boolean('rule.required')),
  /** null (or an empty text) removes it. */
  backchannelLogoutUri: v.optional(v.nullable(v.union([v.literal(''), logoutUri]))),
  jwtAccessTokens: v.optional(v.boolean('rule.required')),
});
