// "Forgot password" on the sign-in page: a code by email or SMS to the account's address, then a
// new password with it. The identifier is the email address or the mobile phone number; which
// one it is also picks the channel the code goes by; a phone number follows the field rules in force
// (mainland numbers by default, E.164 under the international rules).
import * as v from 'valibot';
import { MessageServiceType } from '../enums';
import { rules } from '../validation';
import { fieldRule } from '../validation/field-rules';
import { transformedPassword } from './common';

/** EMAIL for an email address, SMS for a mobile phone number. */
export const resetChannelOf = (identifier: string) => (identifier.includes('@') ? MessageServiceType.EMAIL : MessageServiceType.SMS);

/** The identifier with `phone` as the phone number's rule; a phone number is answered as the rule
 *  answers it (an international one without its separators, as it is stored). */
export function resetIdentifierWith(phone: v.GenericSchema<string, string>) {
  const isEmail = (value: string) => resetChannelOf(value) === MessageServiceType.EMAIL;
  return v.pipe(
    v.string('rule.required'),
    v.trim(),
    v.nonEmpty('rule.required'),
    v.maxLength(100, 'rule.emailOrPhone'),
    v.check((value) => (isEmail(value) ? v.is(rules.email, value) : v.is(phone, value)), 'rule.emailOrPhone'),
    v.transform((value) => (isEmail(value) ? value : v.parse(phone, value))),
  );
}

/** The server's: the phone rule of the field rules in force (src/core/validation/field-rules.ts);
 *  the sign-in page builds its own with the mode its public settings name. */
export const resetIdentifier = resetIdentifierWith(fieldRule.mobilePhone);

export const resetCodeBody = v.object({ identifier: resetIdentifier });

/** The code of a reset: six digits. */
export const resetCode = v.pipe(v.string('rule.required'), v.trim(), v.regex(/^\d{6}$/, 'rule.code'));

export const passwordResetBody = v.object({
  identifier: resetIdentifier,
  code: resetCode,
  /** The new password, transformed like every password the browser sends. */
  password: transformedPassword,
});
