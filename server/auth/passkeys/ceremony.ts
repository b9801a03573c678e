// Verifying what an authenticator answered, in the order that gives each refusal its own clear
// message: the client data's type, its challenge (taken: single use, bound to its ceremony), the
// page origin, the RP ID the authenticator signed for, then @simplewebauthn/server verifies the
// attestation or signature itself (which checks all of these again) and, for an assertion, that
// the signature counter moved forward.
import { createHash } from 'node:crypto';
import type * as v from 'valibot';
import type { WebAuthnCredential } from '@simplewebauthn/server';
import type { Ctx } from '../../context';
import { ApiError } from '../../http/errors';
import type { authenticationCredential, registrationCredential } from '../../../src/core/schemas/passkeys';
import { takeChallenge, type ChallengeBinding, type ChallengePurpose } from './challenges';
import { relyingParty, type RelyingParty } from './relying-party';
import { webauthnHelpers, webauthnLibrary } from './library';

export type RegistrationCredential = v.InferOutput<typeof registrationCredential>;
export type AuthenticationCredential = v.InferOutput<typeof authenticationCredential>;

const UNREADABLE = 'The passkey answer could not be read; please try again';
export const WRONG_ORIGIN = 'The passkey was used on a page this server does not accept passkeys from';
export const WRONG_RP_ID = 'The passkey was made for another site';
export const COUNTER_BACKWARDS = "The passkey's use counter went backwards: it may have been copied. Remove it and add a new one";
export const NOT_VERIFIED = 'The passkey could not be verified';

const refuse = (message: string) => new ApiError(400, message);

/**
 * The key algorithms a passkey may use (COSE: EdDSA, ES256, RS256), offered at registration and
 * the only ones it accepts, on every Node.js line alike. @simplewebauthn/server's default puts
 * ML-DSA-44 first where the runtime's WebCrypto verifies it (Node.js 24, experimental there), and
 * an authenticator that supports it takes it (Chromium's does): such a passkey, added on 24, would
 * not sign in on 20 or 22, nor (its 2,420-byte signatures are past the sign-in's cap) on 24.
 */
export const passkeyAlgorithms = [-8, -7, -257];

interface ClientData {
  type: string;
  challenge: string;
  origin: string;
}

function clientDataOf(encoded: string, type: 'webauthn.create' | 'webauthn.get'): ClientData {
  let data: Partial<ClientData>;
  try {
    data = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<ClientData>;
  } catch {
    throw refuse(UNREADABLE);
  }
  if (data.type !== type || typeof data.challenge !== 'string' || typeof data.origin !== 'string') throw refuse(UNREADABLE);
  return data as ClientData;
}

/** The authenticator data's first 32 bytes are the SHA-256 of the RP ID it signed for. */
function checkRpId(party: RelyingParty, authenticatorData: Uint8Array): void {
  const expected = createHash('sha256').update(party.id).digest();
  if (authenticatorData.length < 37 || !expected.equals(authenticatorData.subarray(0, 32))) throw refuse(WRONG_RP_ID);
}

/** Client data, challenge, origin: common to both ceremonies. */
async function checkClientData(
  ctx: Ctx,
  party: RelyingParty,
  encoded: string,
  type: 'webauthn.create' | 'webauthn.get',
  purpose: ChallengePurpose,
  binding: ChallengeBinding,
): Promise<ClientData> {
  const data = clientDataOf(encoded, type);
  await takeChallenge(ctx, data.challenge, purpose, binding);
  if (!party.origins.includes(data.origin)) throw refuse(WRONG_ORIGIN);
  return data;
}

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
}

/** A registration (navigator.credentials.create()) for the session and person that asked. */
export async function verifyRegistration(ctx: Ctx, credential: RegistrationCredential, binding: Required<ChallengeBinding>): Promise<NewCredential> {
  const party = relyingParty(ctx);
  const data = await checkClientData(ctx, party, credential.response.clientDataJSON, 'webauthn.create', 'register', binding);
  const { decodeAttestationObject } = await webauthnHelpers();
  let authData: Uint8Array | undefined;
  try {
    authData = decodeAttestationObject(Buffer.from(credential.response.attestationObject, 'base64url')).get('authData');
  } catch {
    throw refuse(UNREADABLE);
  }
  checkRpId(party, authData ?? new Uint8Array());
  const { verifyRegistrationResponse } = await webauthnLibrary();
  const result = await verifyRegistrationResponse({
    response: credential,
    expectedChallenge: data.challenge,
    expectedOrigin: party.origins,
    expectedRPID: party.id,
    requireUserVerification: true,
    supportedAlgorithmIDs: passkeyAlgorithms,
  }).catch(() => ({ verified: false as const }));
  if (!result.verified) throw refuse(NOT_VERIFIED);
  const { credential: made, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
  return {
    credentialId: made.id,
    publicKey: Buffer.from(made.publicKey).toString('base64url'),
    counter: made.counter,
    transports: credential.response.transports ?? [],
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
  };
}

export interface StoredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string;
}

/** An assertion (navigator.credentials.get()) by `stored`, for the ceremony `purpose` and its
 *  binding. A passkey alone must have verified the person (PIN, biometrics); as a second step
 *  after the password, its presence is enough. Answers the new counter. */
export async function verifyAssertion(
  ctx: Ctx,
  credential: AuthenticationCredential,
  stored: StoredCredential,
  purpose: 'login' | 'second-step',
  binding: ChallengeBinding,
): Promise<number> {
  const party = relyingParty(ctx);
  const data = await checkClientData(ctx, party, credential.response.clientDataJSON, 'webauthn.get', purpose, binding);
  const authenticatorData = Buffer.from(credential.response.authenticatorData, 'base64url');
  checkRpId(party, authenticatorData);
  const counter = authenticatorData.readUInt32BE(33);
  // An authenticator that counts never repeats or lowers its count; one that does not count says 0.
  if ((counter > 0 || stored.counter > 0) && counter <= stored.counter) throw refuse(COUNTER_BACKWARDS);
  const { verifyAuthenticationResponse } = await webauthnLibrary();
  const webauthnCredential: WebAuthnCredential = {
    id: stored.credentialId,
    publicKey: Buffer.from(stored.publicKey, 'base64url'),
    counter: stored.counter,
    transports: JSON.parse(stored.transports) as string[],
  };
  const result = await verifyAuthenticationResponse({
    response: credential,
    expectedChallenge: data.challenge,
    expectedOrigin: party.origins,
    expectedRPID: party.id,
    credential: webauthnCredential,
    requireUserVerification: purpose === 'login',
  }).catch(() => ({ verified: false, authenticationInfo: undefined }));
  if (!result.verified || !result.authenticationInfo) throw refuse(NOT_VERIFIED);
  return result.authenticationInfo.newCounter;
}
