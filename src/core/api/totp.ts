// The signed-in person's authenticator app (TOTP).
import type * as v from 'valibot';
import { request } from '../http';
import { transformPassword } from '../password-transform';
import type { totpEnrolment, totpStatus } from '../schemas/totp';

export type TotpEnrolment = v.InferOutput<typeof totpEnrolment>;

export function totpStatusOf(): Promise<v.InferOutput<typeof totpStatus>> {
  return request('GET', '/user/totp', { silent: true });
}

/** Starts enrolment with my current password (plain; transformed here): the secret (as an
 *  otpauth:// URI and as text) is in this answer only. */
export async function startTotpEnrolment(password: string): Promise<TotpEnrolment> {
  return request<TotpEnrolment>('POST', '/user/totp', { body: { password: await transformPassword(password) } });
}

export function confirmTotp(code: string): Promise<void> {
  return request<void>('POST', '/user/totp/confirm', { body: { code } });
}

export function disableTotp(code: string): Promise<void> {
  return request<void>('POST', '/user/totp/disable', { body: { code } });
}
