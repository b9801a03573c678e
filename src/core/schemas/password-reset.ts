// "Forgot password" on the sign-in page: a code by email or SMS to the account's address, then a
// new password with it. The identifier is the email address or the mobile phone number; which
// one it is also picks the channel the code goes by.
import * as v from 'valibot';
import { MessageServiceType } from '../enums';
import { patterns, rules } from '../validation';
import { transformedPassword } from './common';

/** EMAIL for an email address, SMS for a mobile phone number. */
export const resetChannelOf = (identifier: string) => (identifier.includes('@') ? MessageServiceType.EMAIL : MessageServiceType.SMS);

export const resetIdentifier = v.pipe(
  v.string('rule.required'),
  v.trim(),
  v.nonEmpty('rule.required'),
  v.maxLength(100, 'rule.emailOrPhone'),
  v.check((value) => (resetChannelOf(value) === MessageServiceType.EMAIL ? v.is(rules.email, value) : patterns.mobilePhone.test(value)), 'rule.emailOrPhone'),
);

export const resetCodeBody = v.object({ identifier: resetIdentifier });

/** The code of a reset: six digits. */
export const resetCode = v.pipe(v.string('rule.required'), v.trim(), v.regex(/^\d{6}$/, 'rule.code'));

export const passwordResetBody = v.object({
  identifier: resetIdentifier,
  code: resetCode,
  /** The new password, transformed like every password the browser sends. */
  password: transformedPassword,
});
