// Passwords: the transform applied before they leave the browser (password-transform.ts), and
// the policy a new password must meet before it is transformed.
import * as v from 'valibot';
import { transformPassword } from './password-transform';
import { rules } from './validation';

export { setPasswordTransform, sha256HexTransform, transformPassword, type PasswordTransform } from './password-transform';
export { sha256Hex } from './sha256';

/** Thrown when a new password breaks the policy; `message` is the i18n key of the rule. */
export class PasswordPolicyError extends Error {
  override readonly name = 'PasswordPolicyError';
}

/** The rule key a new password breaks (after trimming), or undefined when it meets the policy. */
export function passwordPolicyIssue(plain: string): string | undefined {
  const result = v.safeParse(rules.newPassword, plain.trim());
  return result.success ? undefined : result.issues[0].message;
}

/** Checks the policy (6-20 characters, a digit and a non-digit) on the trimmed password, then transforms it. */
export async function transformNewPassword(plain: string): Promise<string> {
  const issue = passwordPolicyIssue(plain);
  if (issue) throw new PasswordPolicyError(issue);
  return transformPassword(plain);
}
