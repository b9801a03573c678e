// One-time codes: "forgot password" on the sign-in page and email verification links.
import type { CallAnswer } from '../contract/declare';
import { postVerifiedByCode } from '../contract/email-verification';
import { postUserPasswordResetCode } from '../contract/password-reset';
import { putUserPassword } from '../contract/users';
import { transformNewPassword } from '../password';
import { call } from './call';

/** POST /user/password/reset-code: a code to this email address (by email) or mobile phone (by
 *  SMS); answered alike for unknown accounts. */
export async function sendResetCode(identifier: string): Promise<void> {
  await call(postUserPasswordResetCode, { body: { identifier: identifier.trim() } }, { silent: true, authRedirect: false });
}

/** PUT /user/password with a reset code: the new password (checked, then transformed) with the code; the
 *  caller checks the login settings' policy first. */
export async function resetPasswordWithCode(identifier: string, code: string, password: string): Promise<void> {
  const body = { identifier: identifier.trim(), code: code.trim(), password: await transformNewPassword(password) };
  await call(putUserPassword, { body }, { silent: true, authRedirect: false });
}

/** POST /verified/{code}: uses the link from the mail. A refusal's HttpError data carries
 *  `reason`: 'unknown', 'used' or 'expired'. */
export function redeemVerificationLink(code: string): Promise<CallAnswer<typeof postVerifiedByCode>> {
  return call(postVerifiedByCode, { params: { code } }, { silent: true, authRedirect: false });
}
