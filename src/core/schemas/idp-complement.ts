// What a first-time third-party user completes before their account is made: apart from
// ./idp.ts because it follows the field rules (src/core/validation/field-rules.ts), which the
// administrator's provider dialog does not need to load.
import * as v from 'valibot';
import { optionalField, rules } from '../validation';
import { fieldRule } from '../validation/field-rules';
import { switchAccount } from './idp';

/** What a first-time third-party user completes before their account is made. */
export const complementBody = v.object({
  switchAccount,
  username: v.optional(fieldRule.username),
  realName: v.optional(fieldRule.realName),
  email: optionalField(rules.email),
  mobilePhone: optionalField(fieldRule.mobilePhone),
});
