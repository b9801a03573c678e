// Third-party sign-in ("Third-party login info", /interaction/idp/… calls) and the
// identity providers an administrator configures.
import * as v from 'valibot';
import { rules } from '../validation';
import { transformedPassword, uploadedImage } from './common';

export const idpCodeParams = v.object({ idpCode: rules.safeCode });
export const accessInfoParams = v.object({ idpCode: rules.safeCode, token: v.pipe(v.string(), v.regex(/^[\w-]{10,100}$/, 'rule.token')) });
export const accessTicketQuery = v.object({ access_ticket: v.pipe(v.string('rule.required'), v.regex(/^[\w-]{20,200}$/, 'rule.accessTicket')) });

export const accessInfo = v.object({
  idpCode: v.string(),
  token: v.string(),
  accessTicket: v.string(),
  needComplement: v.boolean(),
  complement: v.optional(v.record(v.string(), v.unknown())),
  /** A local account has the provider's email: the person may link to it (with its password). */
  existingAccount: v.optional(v.object({ username: v.string() })),
});

/** true: the person confirmed that this third-party sign-in replaces the browser's current session
 *  (without it, a redemption over a live session is refused). */
export const switchAccount = v.optional(v.boolean('rule.required'));

/** Linking to the existing account: its password (transformed as at sign-in), and a code from its
 *  authenticator app when it has one. */
export const linkBody = v.object({
  switchAccount,
  password: transformedPassword,
  code: v.optional(v.pipe(v.string('rule.totpCode'), v.regex(/^\d{6}$/, 'rule.totpCode'))),
});

/** A provider's button icon (see uploadedImage). */
const idpIcon = uploadedImage;

/** Scope names (space or comma separated; 'openid' is always asked). */
const scopes = v.pipe(v.string('rule.scopes'), v.maxLength(500, 'rule.maxLength?max=500'), v.regex(/^[\w:./, -]*$/, 'rule.scopes'));

/** A provider's OpenID Connect settings, each optional (an update changes only those given). The
 *  client secret is write-only: never answered back; blank on update keeps the stored one. Other
 *  keys are dropped. */
export const idpConfig = v.object({
  issuer: v.optional(v.pipe(rules.url, v.maxLength(500, 'rule.maxLength?max=500'))),
  clientId: v.optional(v.pipe(v.string('rule.required'), v.maxLength(200, 'rule.maxLength?max=200'))),
  clientSecret: v.optional(v.pipe(v.string('rule.required'), v.maxLength(2000, 'rule.maxLength?max=2000'))),
  scopes: v.optional(scopes),
});

export const idpBody = v.object({
  code: rules.safeCode,
  name: rules.resourceName,
  /** The sign-in button's icon (see idpIcon). */
  icon: v.optional(idpIcon),
  type: v.picklist(['OIDC', 'OAUTH2'], 'rule.idpType'),
  config: idpConfig,
  enabled: v.optional(v.boolean('rule.required')),
});

/** Adding a provider: its issuer is required (without it there is nothing to sign in with). */
export const idpCreateBody = v.object({
  ...idpBody.entries,
  config: v.object({ ...idpConfig.entries, issuer: idpConfig.entries.issuer.wrapped }, 'rule.required'),
});

export const idpSummary = v.object({ code: v.string(), name: v.string(), type: v.string(), enabled: v.boolean(), icon: v.nullable(v.string()) });

/** A provider as administrators see it: every one (disabled too), with its non-secret settings and
 *  whether a client secret is stored (never the secret). */
export const idpDetail = v.object({
  ...idpSummary.entries,
  issuer: v.string(),
  clientId: v.string(),
  scopes: v.string(),
  hasClientSecret: v.boolean(),
});
export type IdpDetail = v.InferOutput<typeof idpDetail>;
export type IdpInput = v.InferInput<typeof idpBody>;
