// Single sign-on for the apps (our OpenID Connect provider): the consent page's calls and the
// apps' client secrets.
import * as v from 'valibot';

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
});

export const consentBody = v.object({ allow: v.boolean('rule.required') });

/** Where the browser goes next (back to the provider, which redirects to the app). */
export const consentAnswer = v.object({ redirectURL: v.string() });

export const clientStatus = v.object({
  clientId: v.string(),
  issuer: v.string(),
  /** The app's callback URLs (the only redirect URIs the provider accepts for it). */
  redirectUris: v.array(v.string()),
  hasSecret: v.boolean(),
  rotatedAt: v.nullable(v.number()),
});

/** The one answer that carries the client secret: right after it is generated. */
export const clientSecretAnswer = v.object({ clientId: v.string(), clientSecret: v.string(), issuer: v.string() });
