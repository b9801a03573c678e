// POST /authc/login/step: the second step of a sign-in whose first factor answered a step ticket
// (a PHONE_CAPTCHA code, a third-party provider). Apart from ./auth because only the lazily loaded
// sign-in flows call it: the sign-in entry's size budget stays as it is.
import { request, type Query } from '../http';
import type { LoginAnswer } from '../types';

/** The step ticket the first factor answered, and the step's code (or a recovery code); silent,
 *  without the 401 redirect: the flows report their own errors. */
export function loginStep(stepTicket: string, code: string, query?: Query): Promise<LoginAnswer> {
  return request<LoginAnswer>('POST', '/authc/login/step', { body: { stepTicket, code: code.trim() }, query, silent: true, authRedirect: false });
}
