// The rules of a user's fields, listed once: the user and profile forms below AND the API's user
// bodies (src/core/schemas/users.ts) are built from them. Apart from validation.ts so that the
// sign-in entry does not load them.
import * as v from 'valibot';
import { Status, UserType } from '../enums';
import { optionalField, rules } from '../validation';
import { fieldRule } from './field-rules';
import { idRule, uploadedImage } from './stored';

export { idRule, uploadedImage };

export const availabilityStatus = v.picklist([Status.Enable, Status.Disabled], 'rule.availabilityStatus');
export const userType = v.picklist([UserType.Tenant, UserType.Platform, UserType.System], 'rule.userType');

/** A user's extra properties: `intProperty1` is the user type; other keys pass through. */
export const userExtraProp = v.objectWithRest({ intProperty1: v.optional(userType) }, v.unknown(), 'rule.required');

/** The fields of a person that they edit themselves (the profile form, PUT /user/profile and basic_info). */
export const profileFields = {
  realName: fieldRule.realName,
  avatar: v.optional(uploadedImage),
  mobilePhone: optionalField(fieldRule.mobilePhone),
  email: optionalField(rules.email),
};

/** The fields whose rules the field rules setting chooses: an update checks them only when they
 *  change (./changed-fields.ts), a new person always. */
export const ruledUserFields = { username: fieldRule.username, realName: profileFields.realName, mobilePhone: profileFields.mobilePhone };

/** The fields of a user an administrator sets (the user forms, POST /user and PUT /user/{id}). */
export const userFields = {
  ...profileFields,
  description: optionalField(rules.description),
  availabilityStatus: v.optional(availabilityStatus),
  tenantId: v.optional(idRule),
  extraProp: v.optional(userExtraProp),
};

/** Edit personal information. The username is shown read-only and not validated. */
/** The own profile: changing one's phone or email (the ways a password reset reaches the person)
 *  takes the current password too, checked by the server. */
export const profileForm = v.object(
  { username: v.optional(v.string('rule.required')), ...profileFields, currentPassword: v.optional(v.string()) },
  'rule.required',
);

/** User, creating: the password is the plain new password (checked by policy before the transform). */
export const userCreateForm = v.object({ ...userFields, username: fieldRule.username, password: rules.newPassword }, 'rule.required');

/** User, updating: the username and password do not change here; `version` guards against stale writes. */
export const userUpdateForm = v.object({ ...userFields, version: v.optional(v.number('rule.required')) }, 'rule.required');

export type ProfileFormInput = v.InferInput<typeof profileForm>;
export type UserCreateFormInput = v.InferInput<typeof userCreateForm>;
export type UserUpdateFormInput = v.InferInput<typeof userUpdateForm>;
