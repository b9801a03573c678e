// Passkeys (WebAuthn): the personal center's list, adding one (the ceremony's options and the
// authenticator's answer), renaming and removing, and signing in with one (first factor or second
// step). The ceremony shapes are the WebAuthn Level 3 JSON forms that @simplewebauthn/server makes
// and @simplewebauthn/browser answers with, capped in size.
import * as v from 'valibot';
import { visibleCharactersOnly } from '../validation/visible-text';
import { transformedPassword } from './common';
import { totpCode } from './totp';

/** base64url text of at most `max` characters (credential ids, keys, signatures, client data). */
const base64url = (max: number) => v.pipe(v.string('rule.passkey'), v.regex(/^[\w-]*$/, 'rule.passkey'), v.maxLength(max, 'rule.passkey'));
const transports = v.optional(
  v.pipe(v.array(v.pipe(v.string('rule.passkey'), v.maxLength(32, 'rule.passkey')), 'rule.passkey'), v.maxLength(8, 'rule.passkey')),
);
const credentialFields = {
  id: base64url(1366),
  rawId: base64url(1366),
  type: v.literal('public-key', 'rule.passkey'),
  authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'], 'rule.passkey')),
  /** The one extension asked for (credProps); others the browser adds are dropped. */
  clientExtensionResults: v.object({ credProps: v.optional(v.object({ rk: v.optional(v.boolean()) })) }, 'rule.passkey'),
};

/** What navigator.credentials.create() answered (RegistrationResponseJSON). */
export const registrationCredential = v.object(
  {
    ...credentialFields,
    response: v.object(
      {
        clientDataJSON: base64url(4096),
        attestationObject: base64url(16384),
        authenticatorData: v.optional(base64url(8192)),
        transports,
        publicKeyAlgorithm: v.optional(v.number('rule.passkey')),
        publicKey: v.optional(base64url(4096)),
      },
      'rule.passkey',
    ),
  },
  'rule.passkey',
);

/** What navigator.credentials.get() answered (AuthenticationResponseJSON). */
export const authenticationCredential = v.object(
  {
    ...credentialFields,
    response: v.object(
      {
        clientDataJSON: base64url(4096),
        authenticatorData: base64url(8192),
        signature: base64url(1024),
        userHandle: v.optional(base64url(128)),
      },
      'rule.passkey',
    ),
  },
  'rule.passkey',
);

const descriptor = v.object({ id: v.string(), type: v.string(), transports: v.optional(v.array(v.string())) });

/** Options for navigator.credentials.get() (PublicKeyCredentialRequestOptionsJSON). */
export const passkeyRequestOptions = v.object({
  challenge: v.string(),
  timeout: v.optional(v.number()),
  rpId: v.optional(v.string()),
  allowCredentials: v.optional(v.array(descriptor)),
  userVerification: v.optional(v.picklist(['required', 'preferred', 'discouraged'])),
});

/** Options for navigator.credentials.create() (PublicKeyCredentialCreationOptionsJSON). */
export const passkeyCreationOptions = v.object({
  rp: v.object({ id: v.optional(v.string()), name: v.string() }),
  user: v.object({ id: v.string(), name: v.string(), displayName: v.string() }),
  challenge: v.string(),
  pubKeyCredParams: v.array(v.object({ type: v.literal('public-key'), alg: v.number() })),
  timeout: v.optional(v.number()),
  excludeCredentials: v.optional(v.array(descriptor)),
  authenticatorSelection: v.optional(
    v.object({
      authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'])),
      requireResidentKey: v.optional(v.boolean()),
      residentKey: v.optional(v.picklist(['discouraged', 'preferred', 'required'])),
      userVerification: v.optional(v.picklist(['required', 'preferred', 'discouraged'])),
    }),
  ),
  attestation: v.optional(v.picklist(['none', 'indirect', 'direct', 'enterprise'])),
  /** credProps: the browser tells whether a discoverable credential was made. */
  extensions: v.optional(v.object({ credProps: v.optional(v.boolean()) })),
  hints: v.optional(v.array(v.string())),
});

export const passkeyName = v.pipe(
  v.string('rule.required'),
  v.trim(),
  v.nonEmpty('rule.required'),
  v.maxLength(64, 'rule.maxLength?max=64'),
  visibleCharactersOnly('rule.visibleCharacters'),
);

/** POST /user/passkeys/options: adding a passkey starts with the current password again. */
export const passkeyOptionsBody = v.object({ password: transformedPassword });
/** POST /user/passkeys: the name the person gave it and the authenticator's answer. */
export const passkeyAddBody = v.object({ name: passkeyName, credential: registrationCredential });
export const passkeyRenameBody = v.object({ name: passkeyName });
/** DELETE /user/passkeys/:id: removing one takes the proof adding one takes, the current password,
 *  or a current code of the person's authenticator app (one of the two; none answers 400). */
export const passkeyRemoveBody = v.optional(v.object({ password: v.optional(transformedPassword), code: v.optional(totpCode) }), {});
/** POST /authc/passkey/login: a sign-in with a passkey alone (it verified the person itself). */
export const passkeyLoginBody = v.object({ credential: authenticationCredential });

/** A passkey as its owner sees it in the personal center (never its key or credential id). */
export const passkeyInfo = v.object({
  id: v.string(),
  name: v.string(),
  /** 'multiDevice': synced across the person's devices by their password manager. */
  deviceType: v.string(),
  backedUp: v.boolean(),
  createdAt: v.number(),
  lastUsedAt: v.nullable(v.number()),
});
