// JSON POSTs to vendors and robots: bounded in time and size, no redirects, and errors that never
// repeat the URL (a robot's webhook URL carries its access token).
import { DeliveryError } from './types';

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_CHARS = 4_000;

function reason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (error instanceof Error && error.name === 'TimeoutError') return 'The vendor did not answer in time';
  return cause?.code ? `The vendor could not be reached (${cause.code})` : 'The vendor could not be reached';
}

/** POSTs `body` as JSON; answers the parsed JSON answer (or null when it is not JSON). Throws on
 *  network errors and non-2xx answers. */
export async function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new DeliveryError(reason(error));
  }
  const text = (await response.text()).slice(0, MAX_ANSWER_CHARS);
  if (!response.ok) throw new DeliveryError(`The vendor answered HTTP ${response.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
