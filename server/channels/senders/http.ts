// JSON POSTs to vendors and robots: to public addresses only (an administrator typed the URL:
// http/outbound-address.ts), bounded in time and size, no redirects, and errors that never repeat
// the URL (a robot's webhook URL carries its access token).
import { outboundFetch, OutboundAddressError, type OutboundOptions } from '../../http/outbound-address';
import { DeliveryError } from './types';

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4_000;

function reason(error: unknown): string {
  if (error instanceof OutboundAddressError) {
    return "The channel's URL is refused: it is not an http(s) URL of a public address (an operator allows private ones with IAM_OUTBOUND_ALLOW_PRIVATE)";
  }
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (error instanceof Error && error.name === 'TimeoutError') return 'The vendor did not answer in time';
  return cause?.code ? `The vendor could not be reached (${cause.code})` : 'The vendor could not be reached';
}

/** POSTs `body` as JSON; answers the parsed JSON answer (or null when it is not JSON). Throws on
 *  refused addresses, network errors and non-2xx answers. */
export async function postJson(url: string, body: string, headers: Record<string, string>, outbound: OutboundOptions): Promise<unknown> {
  let response: Response;
  try {
    response = await outboundFetch(url, {
      ...outbound,
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body,
      timeoutMs: TIMEOUT_MS,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    throw new DeliveryError(reason(error));
  }
  const text = await response.text();
  if (!response.ok) throw new DeliveryError(`The vendor answered HTTP ${response.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
