// Client authentication by the Authorization header (client_secret_basic, RFC 6749 §2.3.1), for the
// token endpoints answered without oidc-provider's pipeline (introspection.ts, refresh-grant.ts).
// Stricter than the provider's own parsing: a header this module does not accept goes to the
// provider, which answers it (errors included).
import type { IncomingHttpHeaders } from 'node:http';
import type { AdapterPayload } from 'oidc-provider';
import { digest, sameDigest } from '../auth/secrets';

/** The client id and secret of a well-formed `Basic` header (RFC 6749 2.3.1: each form-encoded), or undefined. */
function basicCredentials(header: string | undefined): BasicCredentials | undefined {
  const [scheme, encoded, extra] = (header ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !encoded || extra !== undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4) return undefined;
  const basic = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = basic.indexOf(':');
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, '%20'));
    const [id, secret] = [decode(basic.slice(0, colon)), decode(basic.slice(colon + 1))];
    // Visible ASCII only, as the provider requires.
    if (colon < 1 || !secret || /[^\x20-\x7E]/.test(id + secret)) return undefined;
    return { id, secret };
  } catch {
    return undefined;
  }
}

export type BasicCredentials = { id: string; secret: string };

/** The credentials of a client_secret_basic header in a request from no browser (no Origin: a
 *  browser's call is the provider's, for its CORS rules). */
export function basicFromServer(headers: IncomingHttpHeaders): BasicCredentials | undefined {
  return headers.origin === undefined ? basicCredentials(headers.authorization) : undefined;
}

/** Whether `secret` is the client's own; their digests compared: constant time whatever the lengths. */
export function secretMatches(client: AdapterPayload | undefined, secret: string): boolean {
  const own = client?.client_secret;
  return typeof own === 'string' && own !== '' && sameDigest(digest(own), digest(secret));
}
