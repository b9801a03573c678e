// A request body read by this server before it decides who answers: the token endpoints answered
// without oidc-provider's pipeline (introspection.ts, refresh-grant.ts) read it themselves, and a
// request they leave to the provider is handed over with its body still to read.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/** The provider's own limit for a request body. */
export const PROVIDER_BODY_LIMIT = 56 * 1024;

/** The body, or undefined past `limit` bytes (the rest is not read). */
export async function readBody(request: IncomingMessage, limit = PROVIDER_BODY_LIMIT): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of request) {
    received += (chunk as Buffer).length;
    if (received > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, received);
}

/** `raw` as the provider reads it (method, URL, headers, connection), its body `body` again to read:
 *  the request once this server has read it and leaves it to the provider. */
export function withBodyAgain(raw: IncomingMessage, body: Buffer): IncomingMessage {
  const again = Readable.from([body], { objectMode: false }) as Readable & Partial<IncomingMessage>;
  const { method, url, headers, rawHeaders, httpVersion, httpVersionMajor, httpVersionMinor, socket } = raw;
  return Object.assign(again, {
    method,
    url,
    headers,
    rawHeaders,
    httpVersion,
    httpVersionMajor,
    httpVersionMinor,
    socket,
    connection: socket,
  }) as IncomingMessage;
}
