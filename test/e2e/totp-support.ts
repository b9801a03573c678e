// The authenticator app (TOTP) as the e2e tests hold it: a phone app computing codes from the
// secret, and a person turning theirs on through the API. Used by totp.test.ts and
// account-security.test.ts.
import { Secret, TOTP } from 'otpauth';
import { ApiClient } from './harness';
import { transformPassword } from '../../src/core/password';

const PERIOD_MS = 30_000;

/** Time left in a step below which the step before is not used (the request might reach the
 *  server after the step changed, when that code is no longer in its window). */
const MARGIN_MS = 5_000;

/** A phone app holding `secret`. The server accepts a time step once and one step either side of
 *  now (its window): each code is for a later step than the one before, the first for the step
 *  before now, so three codes in a row need no wait; a fourth waits for the clock. */
export function authenticator(secret: string): () => Promise<string> {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD_MS / 1000, secret: Secret.fromBase32(secret) });
  let lastStep = 0;
  return async () => {
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const now = Date.now();
      const current = Math.floor(now / PERIOD_MS);
      const earliest = now % PERIOD_MS < PERIOD_MS - MARGIN_MS ? current - 1 : current;
      const step = Math.max(lastStep + 1, earliest);
      if (step <= current + 1) {
        lastStep = step;
        return totp.generate({ timestamp: step * PERIOD_MS });
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Error('no usable time step');
  };
}

/** Signs `username` in through the API, sets up (with the password, as the personal center does)
 *  and confirms an authenticator app; answers that API session and the app. */
export async function turnOnAuthenticator(baseUrl: string, username: string, password: string): Promise<{ own: ApiClient; nextCode: () => Promise<string> }> {
  const own = new ApiClient(baseUrl);
  await own.signIn(username, password);
  const nextCode = authenticator((await own.call<{ secret: string }>('POST', '/user/totp', { password: await transformPassword(password) })).secret);
  await own.call('POST', '/user/totp/confirm', { code: await nextCode() });
  return { own, nextCode };
}
