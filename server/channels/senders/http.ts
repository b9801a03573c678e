// JSON POSTs to vendors and robots: to public addresses only (an administrator typed the URL:
// http/outbound-address.ts), bounded in time and size, no redirects, and errors that never repeat
// the URL (a robot's webhook URL carries its access token).
import { outboundFetch, OutboundAddressError, type OutboundOptions } from '../../http/outbound-address';
import { DeliveryErrorCode } from '../../../src/core/schemas/delivery-error';
import { DeliveryError } from './types';

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4_000;

function failure(error: unknown): DeliveryError {
  if (error instanceof OutboundAddressError) return new DeliveryError(DeliveryErrorCode.AddressRefused);
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (error instanceof Error && error.name === 'TimeoutError') return new DeliveryError(DeliveryErrorCode.Timeout);
  return new DeliveryError(DeliveryErrorCode.Unreachable, cause?.code ?? null);
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
    throw failure(error);
  }
  const text = await response.text();
  if (!response.ok) throw new DeliveryError(DeliveryErrorCode.HttpStatus, `HTTP ${response.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
