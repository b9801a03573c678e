// One-time codes: "forgot password" on the sign-in page and email verification links.
import type * as v from 'valibot';
import { request } from '../http';
import { transformNewPassword } from '../password';
import type { verifiedAnswer } from '../schemas/email-verification';
import { apiPath } from './path';

/** POST /user/password/reset-code: a code to this email address (by email) or mobile phone (by
 *  SMS); answered alike for unknown accounts. */
export function sendResetCode(identifier: string): Promise<void> {
  return request<void>('POST', '/user/password/reset-code', { body: { identifier: identifier.trim() }, silent: true, authRedirect: false });
}

/** PUT /user/password with a reset code: the new password (checked, then transformed) with the code; the
 *  caller checks the login settings' policy first. */
export async function resetPasswordWithCode(identifier: string, code: string, password: string): Promise<void> {
  const body = { identifier: identifier.trim(), code: code.trim(), password: await transformNewPassword(password) };
  return request<void>('PUT', '/user/password', { body, silent: true, authRedirect: false });
}

/** POST /verified/{code}: uses the link from the mail. A refusal's HttpError data carries
 *  `reason`: 'unknown', 'used' or 'expired'. */
export function redeemVerificationLink(code: string): Promise<v.InferOutput<typeof verifiedAnswer>> {
  return request('POST', apiPath`/verified/${code}`, { silent: true, authRedirect: false });
}
