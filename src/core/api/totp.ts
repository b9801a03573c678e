// The signed-in person's authenticator app (TOTP).
import type * as v from 'valibot';
import { request } from '../http';
import type { totpEnrolment, totpStatus } from '../schemas/totp';

export type TotpEnrolment = v.InferOutput<typeof totpEnrolment>;

export function totpStatusOf(): Promise<v.InferOutput<typeof totpStatus>> {
  return request('GET', '/user/totp', { silent: true });
}

/** Starts enrolment: the secret (as an otpauth:// URI and as text) is in this answer only. */
export function startTotpEnrolment(): Promise<TotpEnrolment> {
  return request<TotpEnrolment>('POST', '/user/totp');
}

export function confirmTotp(code: string): Promise<void> {
  return request<void>('POST', '/user/totp/confirm', { body: { code } });
}

export function disableTotp(code: string): Promise<void> {
  return request<void>('POST', '/user/totp/disable', { body: { code } });
}
