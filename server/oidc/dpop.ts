// DPoP (RFC 9449) at the console's own API routes that take an app's access token: a token bound
// to a key (issued with a DPoP proof at the token endpoint) is accepted only as
// `Authorization: DPoP <token>` with a fresh proof signed by that key (§7.1); as a plain Bearer
// token it is refused, so a stolen bound token is worth nothing without the key. oidc-provider
// checks the same at its own endpoints (userinfo); its check needs the provider's request context,
// so the proof is verified here with jose, the library it uses, by the same rules: the algorithms
// the provider accepts, typ dpop+jwt, the key embedded in the proof, htm/htu of this request, ath
// of the token, iat within the provider's window, and a jti used once (the provider's replay store).
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import type { AsymmetricSigningAlgorithm } from 'oidc-provider';

/** The proof algorithms the provider advertises (dpop_signing_alg_values_supported) and this check accepts. */
export const DPOP_ALGORITHMS: AsymmetricSigningAlgorithm[] = ['ES256', 'Ed25519', 'EdDSA'];
/** How far a proof's iat may be from now, in seconds (oidc-provider's window). */
const PROOF_WINDOW_S = 300;

export class InvalidProof extends Error {}

/** The thumbprint of the key that signed `proof` for this request (method and public URL without
 *  query) and this access token; throws InvalidProof otherwise. */
export async function proofKeyThumbprint(
  provider: Provider,
  proof: string,
  request: { method: string; url: string; accessToken: string; clientId: string },
): Promise<string> {
  let verified;
  try {
    verified = await jwtVerify(proof, EmbeddedJWK, { algorithms: DPOP_ALGORITHMS, typ: 'dpop+jwt' });
  } catch (cause) {
    throw new InvalidProof('invalid DPoP proof', { cause });
  }
  const { payload, protectedHeader } = verified;
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > PROOF_WINDOW_S) throw new InvalidProof('DPoP proof iat is not recent');
  if (typeof payload.jti !== 'string' || !payload.jti) throw new InvalidProof('DPoP proof has no jti');
  if (payload.htm !== request.method) throw new InvalidProof('DPoP proof htm mismatch');
  const htu = typeof payload.htu === 'string' ? URL.parse(payload.htu) : null;
  if (htu) htu.search = htu.hash = '';
  if (htu?.href !== new URL(request.url).href) throw new InvalidProof('DPoP proof htu mismatch');
  if (payload.ath !== createHash('sha256').update(request.accessToken).digest('base64url')) throw new InvalidProof('DPoP proof ath mismatch');
  if (!(await provider.ReplayDetection.unique(request.clientId, payload.jti, now + PROOF_WINDOW_S))) throw new InvalidProof('DPoP proof replayed');
  return calculateJwkThumbprint(protectedHeader.jwk!);
}
