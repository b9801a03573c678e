// "Forgot password" on the sign-in page: a code by email or SMS, then a new password with it.
import * as v from 'valibot';
import { MessageServiceType } from '../enums';
import { transformedPassword } from './common';

const username = v.pipe(v.string('rule.required'), v.trim(), v.nonEmpty('rule.required'), v.maxLength(100, 'rule.maxLength?max=100'));

export const resetCodeBody = v.object({
  username,
  via: v.picklist([MessageServiceType.EMAIL, MessageServiceType.SMS], 'rule.required'),
});

export const passwordResetBody = v.object({
  username,
  code: v.pipe(v.string('rule.required'), v.regex(/^\d{6}$/, 'rule.code')),
  /** The new password, transformed like every password the browser sends. */
  password: transformedPassword,
});
