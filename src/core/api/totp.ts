// The signed-in person's authenticator app (TOTP).
import type { CallAnswer } from '../contract/declare';
import { getUserTotp, postUserTotp, postUserTotpConfirm, postUserTotpDisable } from '../contract/totp';
import { transformPassword } from '../password-transform';
import { call } from './call';

export type TotpEnrolment = CallAnswer<typeof postUserTotp>;

export function totpStatusOf(): Promise<CallAnswer<typeof getUserTotp>> {
  return call(getUserTotp, {}, { silent: true });
}

/** Starts enrolment with my current password (plain; transformed here): the secret (as an
 *  otpauth:// URI and as text) is in this answer only. */
export async function startTotpEnrolment(password: string): Promise<TotpEnrolment> {
  return call(postUserTotp, { body: { password: await transformPassword(password) } });
}

export async function confirmTotp(code: string): Promise<void> {
  await call(postUserTotpConfirm, { body: { code } });
}

export async function disableTotp(code: string): Promise<void> {
  await call(postUserTotpDisable, { body: { code } });
}
