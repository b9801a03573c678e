// A phone's authenticator app for the end-to-end tests (the server runs on the real clock there).
import { Secret, TOTP } from 'otpauth';

const PERIOD_MS = 30_000;

/** An app holding `secret`. The server accepts a time step once: each code is for a later step
 *  than the one before, and at most one step ahead of now (the server's window), so it waits for
 *  the clock when it must. */
export function authenticator(secret: string): () => Promise<string> {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD_MS / 1000, secret: Secret.fromBase32(secret) });
  let lastStep = 0;
  return async () => {
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const current = Math.floor(Date.now() / PERIOD_MS);
      const step = Math.max(lastStep + 1, current);
      if (step <= current + 1) {
        lastStep = step;
        return totp.generate({ timestamp: step * PERIOD_MS });
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Error('no usable time step');
  };
}
