// The sign-in rules (login messages), apart from the other rules of validation.ts so
// that the sign-in form (and its size-budgeted entry) loads only these. validation.ts re-exports
// them; the server's sign-in body (schemas/auth.ts) is built from the same captcha and code rules.
import * as v from 'valibot';
import { PASSWORD } from '../config';

/** The captcha as typed (at most 16 characters). */
export const loginCaptcha = v.pipe(v.string('rule.captcha'), v.maxLength(16, 'rule.captcha'));

/** The code of a multi-step sign-in's next step: 4-8 digits. */
export const loginCode = v.pipe(v.string('rule.code'), v.regex(/^\d{4,8}$/, 'rule.code'));

/** A recovery code as printed (server/auth/recovery-codes.ts): four groups of four letters and
 *  digits, the hyphens (or spaces) optional. */
export const RECOVERY_CODE = /^[0-9a-z]{4}(?:[- ]?[0-9a-z]{4}){3}$/i;

/** What the second step of a sign-in takes: the step's code, or (for an authenticator app's step)
 *  one of the person's recovery codes. */
export const secondStepCode = v.pipe(
  v.string('rule.code'),
  v.check((code) => /^\d{4,8}$/.test(code) || RECOVERY_CODE.test(code), 'rule.code'),
);

/** Login form (login messages). The password is checked in plain text, before the transform. */
export const loginForm = v.object(
  {
    username: v.pipe(v.string('rule.loginUsername'), v.regex(/\S/, 'rule.loginUsername')),
    password: v.pipe(v.string('rule.loginPassword'), v.minLength(PASSWORD.minLength, 'rule.loginPassword')),
    captcha: v.optional(v.string('rule.required')),
    nextStep: v.optional(v.string('rule.required')),
    code: v.optional(v.string('rule.required')),
  },
  'rule.required',
);

export type LoginFormInput = v.InferInput<typeof loginForm>;
