// The authorization and end-session endpoints by POST (OpenID Connect Core §3.1.2.1, RP-Initiated
// Logout §2: both methods, the parameters form-serialised in the body). oidc-provider 9 answers POST
// there only with `enableHttpPostMethods`, which it allows only with SameSite=None session cookies:
// cookies a browser would then send with every cross-site request, and refuse altogether without
// Secure (plain-HTTP development). The mount keeps SameSite=Lax and hands such a POST to the
// provider as the same request by GET, its parameters taken from the body: nothing reaches the
// browser's address bar or history, and the provider answers both methods with one pipeline. A
// cross-site POST carries no Lax cookie, as the specifications expect; the provider then asks the
// person to sign in (the console's page) or to confirm the sign-out, as for a GET without a session.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../http/errors';

/** The provider's paths (under its mount) that take both methods. */
const BOTH_METHODS = new Set(['/auth', '/session/end']);
/** Far above any real request (a request object or an id_token_hint is a few KB). */
const MAX_FORM_BYTES = 64 * 1024;

/** When `raw` POSTs a form to one of those endpoints: turns it into the same request by GET (the
 *  form as the query) and answers true. `path` is the request's path under the provider's mount,
 *  without query. */
export async function postedFormAsQuery(raw: IncomingMessage, path: string): Promise<boolean> {
  if (raw.method !== 'POST' || !BOTH_METHODS.has(path)) return false;
  const form = /^application\/x-www-form-urlencoded\b/i.test(raw.headers['content-type'] ?? '') ? await readForm(raw) : '';
  raw.method = 'GET';
  raw.url = form ? `${path}?${new URLSearchParams(form).toString()}` : path;
  for (const header of ['content-type', 'content-length', 'transfer-encoding']) delete raw.headers[header];
  return true;
}

async function readForm(raw: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new ApiError(413, 'The request body is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
