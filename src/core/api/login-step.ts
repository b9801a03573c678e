// POST /authc/login/step: the second step of a sign-in whose first factor answered a step ticket
// (a PHONE_CAPTCHA code, a third-party provider). Apart from ./auth because only the lazily loaded
// sign-in flows call it: the sign-in entry's size budget stays as it is.
import { postAuthcLoginStep } from '../contract/auth';
import type { CallAnswer } from '../contract/declare';
import { call } from './call';
import type { AuthenticationCredential } from './passkeys';

/** The step's answer: its code (or a recovery code), or a passkey's assertion for the options the step gave. */
export type StepAnswer = { code: string } | { passkey: AuthenticationCredential };

/** The step ticket the first factor answered, and the step's answer; `language` asks for the
 *  answer's message in that language. Silent, without the 401 redirect: the flows report their own errors. */
export function loginStep(stepTicket: string, answer: StepAnswer, language?: string): Promise<CallAnswer<typeof postAuthcLoginStep>> {
  const body = 'code' in answer ? { stepTicket, code: answer.code.trim() } : { stepTicket, passkey: answer.passkey };
  const headers = language ? { 'accept-language': language } : undefined;
  return call(postAuthcLoginStep, { body }, { headers, silent: true, authRedirect: false });
}
