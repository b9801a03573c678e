// The HTTP-Redirect binding's URL for a message this identity provider sends an app (bindings
// §3.4.4.1): the message deflated and base64-encoded, RelayState (when there is one) and SigAlg,
// signed with RSA-SHA256 over their encoded octets in that order; the XML itself carries no
// signature. Used for the LogoutRequests of a browser sign-out (logout-requests.ts) and the
// LogoutResponse to an app's own LogoutRequest (logout.ts).
import { sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { RSA_SHA256 } from './signatures';
import type { SigningKey } from './keys';

export function signedRedirectUrl(location: string, kind: 'SAMLRequest' | 'SAMLResponse', xml: string, relayState: string | null, key: SigningKey): string {
  const query = [
    `${kind}=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`,
    ...(relayState === null ? [] : [`RelayState=${encodeURIComponent(relayState)}`]),
    `SigAlg=${encodeURIComponent(RSA_SHA256)}`,
  ].join('&');
  const signature = sign('sha256', Buffer.from(query), key.privateKey).toString('base64');
  // The app's own query parameters (if its URL has any) come first and are not signed.
  const url = new URL(location);
  return `${url.origin}${url.pathname}?${url.search ? `${url.search.slice(1)}&` : ''}${query}&Signature=${encodeURIComponent(signature)}`;
}
