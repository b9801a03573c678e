// Standard Webhooks signing (https://www.standardwebhooks.com, the `standardwebhooks` library):
// every post carries webhook-id, webhook-timestamp (seconds) and webhook-signature
// ("v1,<base64 HMAC-SHA256 of id.timestamp.body>"). After a rotation the previous secret signs
// too, for a while, so that receivers can switch secrets without losing deliveries.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (the format receivers' libraries read). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** How long the replaced secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60_000;

export interface Signing {
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
}

/** The three headers of one attempt of message `messageId` with `body`, signed at `now`. */
export function signatureHeaders(signing: Signing, messageId: string, body: string, now: number): Record<string, string> {
  const at = new Date(now);
  const secrets = [signing.secret];
  if (signing.previousSecret && (signing.previousSecretUntil ?? 0) > now) secrets.push(signing.previousSecret);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
