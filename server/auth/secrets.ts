// Random secrets and their one-way digests (what the database keeps instead of the secret).
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** 256 bits of randomness, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

export const newId = (): string => randomUUID();

export const digest = (value: string): string => createHash('sha256').update(value).digest('hex');

export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
