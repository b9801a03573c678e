// Passwords never leave the browser in plain text: they are trimmed, then transformed (by default
// the lowercase hex SHA-256 of their UTF-8 bytes; the server hashes that again with a slow KDF).
// @noble/hashes, not Web Crypto: crypto.subtle is missing on plain-http pages and in old engines.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import * as v from 'valibot';
import { rules } from './validation';

/** Turns a trimmed plain password into the value sent to the server. */
export type PasswordTransform = (trimmed: string) => string | Promise<string>;

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

let transform: PasswordTransform = sha256Hex;

/** Replaces the transform (e.g. a host's own hashing routine); without an argument restores SHA-256 hex. */
export function setPasswordTransform(fn: PasswordTransform = sha256Hex): void {
  transform = fn;
}

/** Trims and transforms a password that is only checked by the server (login, old or administrator password). */
export async function transformPassword(plain: string): Promise<string> {
  return transform(plain.trim());
}

/** Thrown when a new password breaks the §5 policy; `message` is the i18n key of the rule. */
export class PasswordPolicyError extends Error {
  override readonly name = 'PasswordPolicyError';
}

/** The rule key a new password breaks (after trimming), or undefined when it meets the policy. */
export function passwordPolicyIssue(plain: string): string | undefined {
  const result = v.safeParse(rules.newPassword, plain.trim());
  return result.success ? undefined : result.issues[0].message;
}

/** Checks the §5 policy (6-20 characters, a digit and a non-digit) on the trimmed password, then transforms it. */
export async function transformNewPassword(plain: string): Promise<string> {
  const issue = passwordPolicyIssue(plain);
  if (issue) throw new PasswordPolicyError(issue);
  return transformPassword(plain);
}
