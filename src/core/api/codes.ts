// One-time codes: "forgot password" on the sign-in page and email verification links.
import type * as v from 'valibot';
import { request } from '../http';
import { transformNewPassword } from '../password';
import type { verifiedAnswer } from '../schemas/email-verification';
import { apiPath } from './path';

/** POST /user/password/reset-code: a code by email or SMS (answered alike for unknown accounts). */
export function sendResetCode(username: string, via: 'EMAIL' | 'SMS'): Promise<void> {
  return request<void>('POST', '/user/password/reset-code', { body: { username: username.trim(), via }, authRedirect: false });
}

/** PUT /user/password/reset: the new password (policy checked, then transformed) with the code. */
export async function resetPasswordWithCode(username: string, code: string, password: string): Promise<void> {
  const body = { username: username.trim(), code: code.trim(), password: await transformNewPassword(password) };
  return request<void>('PUT', '/user/password/reset', { body, authRedirect: false });
}

export function sendVerificationLink(): Promise<void> {
  return request<void>('POST', '/user/email/verification');
}

/** POST /verified/{code}: uses the link from the mail. */
export function redeemVerificationLink(code: string): Promise<v.InferOutput<typeof verifiedAnswer>> {
  return request('POST', apiPath`/verified/${code}`, { authRedirect: false });
}
