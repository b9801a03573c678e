// Random secrets and their one-way digests (what the database keeps instead of the secret).
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** 256 bits of randomness, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

export const newId = (): string => randomUUID();

/** SHA-256 in hex, one call (no Hash object: the session check digests its secret on every request). */
export const digest = (value: string): string => hash('sha256', value, 'hex');

export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
