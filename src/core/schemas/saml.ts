// SAML 2.0 for the apps that speak it (server/saml/): an app registered as a service provider, the
// identity provider's signing keys, and the sign-in page's calls (which app asks, allow or deny).
import * as v from 'valibot';
import { rules } from '../validation';

/** What the NameID of an assertion carries: the e-mail, an opaque id stable for this app
 *  (persistent), a new opaque id for each assertion (transient), or the username (unspecified).
 *  The app's setting is the default: an AuthnRequest may ask for another (server/saml/name-id.ts). */
export const NAME_ID_FORMATS = ['email', 'persistent', 'transient', 'unspecified'] as const;
export type NameIdFormat = (typeof NAME_ID_FORMATS)[number];

export const SAML_BINDINGS = ['HTTP-POST', 'HTTP-Redirect'] as const;

/** How the app's Single Logout service is reached: through the browser (HTTP-Redirect, HTTP-POST)
 *  or server to server (SOAP, the only one that reaches the app when no browser is there: an
 *  administrator ending the person's sessions, disabling them, a password reset). */
export const SLO_BINDINGS = ['HTTP-Redirect', 'HTTP-POST', 'SOAP'] as const;
export type SloBinding = (typeof SLO_BINDINGS)[number];

/** How an app's assertions are encrypted when its administrator turned encryption on (the key
 *  travels with RSA-OAEP, under the app's encryption certificate). AES-256-GCM unless the app can
 *  only read AES-256-CBC. */
export const ASSERTION_ENCRYPTIONS = ['aes256-gcm', 'aes256-cbc'] as const;
export type AssertionEncryption = (typeof ASSERTION_ENCRYPTIONS)[number];

/** At most this many assertion consumer service URLs per app. */
export const MAX_ACS_URLS = 10;

/** An absolute http(s) URL of the app (an ACS or SLO location, given or read from its metadata). */
export const samlUrl = v.pipe(
  rules.url,
  v.maxLength(2000, 'rule.url'),
  v.check((url) => !url.includes('#'), 'rule.url'),
);

/** An entity ID: a URI (usually the SP's URL or a URN), printable, at most 1024 characters. */
const entityId = v.pipe(
  v.string('rule.required'),
  v.trim(),
  v.minLength(1, 'rule.required'),
  v.maxLength(1024, 'rule.samlEntityId'),
  v.regex(/^\S+$/, 'rule.samlEntityId'),
);

/** A certificate as PEM or bare base64 (checked to be X.509 by the server). */
const certificate = v.pipe(v.string('rule.certificate'), v.maxLength(16_384, 'rule.certificate'));

/** An assertion consumer service; `index` is what an AuthnRequest's AssertionConsumerServiceIndex
 *  names (read from SP metadata; when absent, the service's position in the list). */
const acsIndex = v.optional(v.pipe(v.number('rule.url'), v.integer('rule.url'), v.minValue(0, 'rule.url'), v.maxValue(65535, 'rule.url')));
const acsUrl = v.object({ url: samlUrl, binding: v.picklist(SAML_BINDINGS, 'rule.samlBinding'), index: acsIndex });

/** The settings an administrator gives; any left out are read from the SP metadata (pasted, or
 *  fetched from `metadataUrl`), and a field given wins over the metadata. */
export const samlProviderBody = v.object({
  entityId: v.optional(entityId),
  acsUrls: v.optional(v.pipe(v.array(acsUrl, 'rule.required'), v.maxLength(MAX_ACS_URLS, 'rule.url'))),
  sloUrl: v.optional(v.union([v.literal(''), samlUrl], 'rule.url')),
  nameIdFormat: v.optional(v.picklist(NAME_ID_FORMATS, 'rule.nameIdFormat')),
  signingCert: v.optional(v.union([v.literal(''), certificate], 'rule.certificate')),
  encryptionCert: v.optional(v.union([v.literal(''), certificate], 'rule.certificate')),
  wantRequestsSigned: v.optional(v.boolean()),
  signResponse: v.optional(v.boolean()),
  signAssertion: v.optional(v.boolean()),
  metadataXml: v.optional(v.pipe(v.string(), v.maxLength(64 * 1024, 'rule.samlMetadata'))),
  metadataUrl: v.optional(v.union([v.literal(''), samlUrl], 'rule.url')),
  sloBinding: v.optional(v.picklist(SLO_BINDINGS, 'rule.sloBinding')),
  assertionEncryption: v.optional(v.picklist(ASSERTION_ENCRYPTIONS, 'rule.assertionEncryption')),
  /** Encrypt the app's assertions for its encryption certificate (given, or read from its
   *  metadata): off until asked for, as a certificate in the metadata is no request for it. */
  encryptAssertions: v.optional(v.boolean()),
});

/** This server as the identity provider: what an administrator gives the app. */
const samlIdpInfo = v.object({ entityId: v.string(), ssoUrl: v.string(), sloUrl: v.string(), metadataUrl: v.string() });

const samlProvider = v.object({
  appId: v.string(),
  entityId: v.string(),
  acsUrls: v.array(v.object({ url: v.string(), binding: v.picklist(SAML_BINDINGS), index: v.optional(v.number()) })),
  sloUrl: v.nullable(v.string()),
  nameIdFormat: v.picklist(NAME_ID_FORMATS),
  signingCert: v.nullable(v.string()),
  encryptionCert: v.nullable(v.string()),
  wantRequestsSigned: v.boolean(),
  signResponse: v.boolean(),
  signAssertion: v.boolean(),
  metadataUrl: v.nullable(v.string()),
  sloBinding: v.nullable(v.picklist(SLO_BINDINGS)),
  assertionEncryption: v.picklist(ASSERTION_ENCRYPTIONS),
  encryptAssertions: v.boolean(),
});

/** The app's SAML settings (null when it is not a service provider) and this identity provider. */
export const samlProviderAnswer = v.object({ provider: v.nullable(samlProvider), idp: samlIdpInfo });

const samlKeyState = v.picklist(['active', 'next', 'previous']);
export type SamlKeyState = v.InferOutput<typeof samlKeyState>;
export const samlKeyList = v.array(v.object({ id: v.string(), state: samlKeyState, createdAt: v.number() }));

export const samlRequestParams = v.object({ id: v.pipe(v.string('rule.required'), v.regex(/^[\w-]{10,100}$/, 'rule.uid')) });

/** A sign-in to an app waiting for the person (the SAML sign-in page). `trusted`: allowed without
 *  asking (a trusted app, or the person's consent to this app is remembered: `remembered`). */
/** `signInAgain`: the app asked for a fresh sign-in (ForceAuthn) and this session is older. */
export const samlRequest = v.object({ appId: v.string(), appName: v.string(), trusted: v.boolean(), remembered: v.boolean(), signInAgain: v.boolean() });

/** Where the browser goes next: the page that posts the assertion to the app, or back to the app
 *  with a refusal. */
export const samlNext = v.object({ redirectURL: v.string() });
export const samlConsentBody = v.object({ allow: v.boolean('rule.required') });

/** The parameters of the SAML bindings (HTTP-Redirect: the query; HTTP-POST: the posted form), as
 *  documented for the protocol endpoints: read as sent by server/saml/bindings-query.ts, each at
 *  most once, a request or a response. */
export const samlBindingFields = v.object({
  SAMLRequest: v.optional(v.pipe(v.string(), v.description('An AuthnRequest or LogoutRequest: base64 (HTTP-POST) or DEFLATE and base64 (HTTP-Redirect)'))),
  SAMLResponse: v.optional(v.pipe(v.string(), v.description("An app's LogoutResponse, in the same encodings"))),
  RelayState: v.optional(v.pipe(v.string(), v.description('Returned to the app as given'))),
  SigAlg: v.optional(v.pipe(v.string(), v.description('HTTP-Redirect: the algorithm of Signature'))),
  Signature: v.optional(v.pipe(v.string(), v.description('HTTP-Redirect: the signature over SAMLRequest or SAMLResponse, RelayState and SigAlg as sent'))),
});

/** A browser sign-out's chain (the step URL the sign-out answers as `appLogoutURL`). */
export const samlLogoutChainParams = v.object({ chain: v.string('rule.required') });
