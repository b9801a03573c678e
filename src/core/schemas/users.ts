// user calls: list, read, basic info, profile, create/update, delete, passwords.
import * as v from 'valibot';
import { loginCode } from '../validation';
import { availabilityStatus, profileFields, userExtraProp, userFields } from '../validation/user';
import { fieldRule } from '../validation/field-rules';
import { keptText } from '../validation/changed-fields';
import { id, pageQueryFields, transformedPassword, version } from './common';

/** Columns a user list can be searched by (each has an index). */
export const userSearchProps = ['username', 'realName', 'email', 'mobilePhone'] as const;

export const userListQuery = v.object({
  ...pageQueryFields,
  searchProp: v.optional(v.picklist(userSearchProps, 'rule.searchProp')),
  /** Only users of this tenant (and its subtree). */
  tenantId: v.optional(id),
});

/** Fields an administrator sets on a user (create and update): the user form's fields plus the rights. */
const editableFields = {
  ...userFields,
  isAdmin: v.optional(v.boolean('rule.required')),
  isMaster: v.optional(v.boolean('rule.required')),
};

/** POST /user without id: a new user; the password is the transformed one. */
export const userCreateBody = v.object({ ...editableFields, username: fieldRule.username, password: transformedPassword });

/** An update's name and phone: the stored value passes as it is, a changed one is checked by the
 *  field rules in force (server/services/users.ts, src/core/validation/changed-fields.ts). */
const keptRuledFields = { realName: keptText, mobilePhone: v.optional(keptText) };

/** PUT /user/{id} (or POST /user with an id): `version` guards against stale writes (409). A change
 *  of the phone or email also takes the caller's own current password (transformed). */
export const userUpdateBody = v.object({
  ...v.partial(v.object({ ...editableFields, ...keptRuledFields })).entries,
  id: v.optional(id),
  username: v.optional(v.string()),
  version,
  currentPassword: v.optional(transformedPassword),
});

/** POST /user: a create, or an update when the body carries the user's id. */
export const userSaveBody = v.lazy((input: unknown) =>
  typeof input === 'object' && input !== null && 'id' in input && input.id ? v.object({ ...userUpdateBody.entries, id }) : userCreateBody,
);
/** userSaveBody as the OpenAPI document shows it (a lazy schema has no JSON Schema of its own). */
export const userSaveDoc = v.union([userCreateBody, v.object({ ...userUpdateBody.entries, id })]);

/** PUT /user/{id}/basic_info and PUT /user/profile: what a user may change about themselves. */
export const basicInfoBody = v.object({
  username: v.optional(v.string()),
  ...profileFields,
  ...keptRuledFields,
  description: userFields.description,
  version: v.optional(version),
  /** A change of the phone or email also takes the caller's own current password (transformed). */
  currentPassword: v.optional(transformedPassword),
});

export const basicInfo = v.object({
  id: v.string(),
  username: v.string(),
  realName: v.string(),
  avatar: v.optional(v.string()),
  mobilePhone: v.optional(v.string()),
  email: v.optional(v.string()),
  description: v.optional(v.string()),
  version: v.number(),
});

/** PUT /user/profile (and one's own basic_info): a new email address or mobile phone is not
 *  applied at once; a code was sent to it, and it is named here until confirmed. */
export const profileAnswer = v.object({
  ...basicInfo.entries,
  pendingEmail: v.optional(v.string()),
  pendingMobilePhone: v.optional(v.string()),
});

/** POST /user/profile/contact/confirm: the code sent to the pending address of `channel`. */
export const contactConfirmBody = v.object({
  channel: v.picklist(['email', 'mobilePhone'], 'rule.required'),
  code: loginCode,
});

/** A user, as the API answers it (never with a password or its hash). */
export const user = v.object({
  ...basicInfo.entries,
  availabilityStatus,
  extraProp: userExtraProp,
  tenantId: v.optional(v.string()),
  isAdmin: v.boolean(),
  isMaster: v.boolean(),
  locked: v.boolean(),
  createdAt: v.number(),
});

/** POST /user/{id}/password: an administrator's reset (id, username, the administrator's own
 *  password) or a self reset (loginUserId, the old password). */
export const selfResetBody = v.object({ loginUserId: id, password: transformedPassword, opUserPassword: transformedPassword });
export const adminResetBody = v.object({ id, username: v.optional(v.string()), password: transformedPassword, opUserPassword: transformedPassword });
export const passwordBody = v.union([selfResetBody, adminResetBody], 'rule.required');

/** PUT /user/password: the signed-in user changes their own password. */
export const selfPasswordBody = v.object({ loginUserId: v.optional(id), password: transformedPassword, opUserPassword: transformedPassword });
