// user calls: list, read, basic info, profile, create/update, delete, passwords.
import * as v from 'valibot';
import { Status, UserType } from '../enums';
import { loginCode, optionalField, rules } from '../validation';
import { id, pageQueryFields, pagedList, transformedPassword, uploadedImage, version } from './common';

/** Columns a user list can be searched by (each has an index). */
export const userSearchProps = ['username', 'realName', 'email', 'mobilePhone'] as const;

export const userListQuery = v.object({
  ...pageQueryFields,
  searchProp: v.optional(v.picklist(userSearchProps, 'rule.searchProp')),
  /** Only users of this tenant (and its subtree). */
  tenantId: v.optional(id),
});

const userType = v.picklist([UserType.Tenant, UserType.Platform, UserType.System], 'rule.userType');

const extraProp = v.optional(
  v.objectWithRest({ intProperty1: v.optional(userType) }, v.unknown(), 'rule.required'),
);

/** Fields an administrator sets on a user (create and update). */
const editableFields = {
  realName: rules.realName,
  email: optionalField(rules.email),
  mobilePhone: optionalField(rules.mobilePhone),
  description: optionalField(rules.description),
  availabilityStatus: v.optional(v.picklist([Status.Enable, Status.Disabled], 'rule.availabilityStatus')),
  avatar: v.optional(uploadedImage),
  tenantId: v.optional(id),
  extraProp,
  isAdmin: v.optional(v.boolean('rule.required')),
  isMaster: v.optional(v.boolean('rule.required')),
};

/** POST /user without id: a new user; the password is the transformed one. */
export const userCreateBody = v.object({ ...editableFields, username: rules.username, password: transformedPassword });

/** PUT /user/{id} (or POST /user with an id): `version` guards against stale writes (409). */
export const userUpdateBody = v.object({ ...v.partial(v.object(editableFields)).entries, id: v.optional(id), username: v.optional(v.string()), version });

/** POST /user: a create, or an update when the body carries the user's id. */
export const userSaveBody = v.lazy((input: unknown) =>
  typeof input === 'object' && input !== null && 'id' in input && input.id ? v.object({ ...userUpdateBody.entries, id }) : userCreateBody);
/** userSaveBody as the OpenAPI document shows it (a lazy schema has no JSON Schema of its own). */
export const userSaveDoc = v.union([userCreateBody, v.object({ ...userUpdateBody.entries, id })]);

/** PUT /user/{id}/basic_info and PUT /user/profile: what a user may change about themselves. */
export const basicInfoBody = v.object({
  username: v.optional(v.string()),
  realName: rules.realName,
  avatar: v.optional(uploadedImage),
  mobilePhone: optionalField(rules.mobilePhone),
  email: optionalField(rules.email),
  description: optionalField(rules.description),
  version: v.optional(version),
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

export const user = v.object({
  ...basicInfo.entries,
  availabilityStatus: v.number(),
  extraProp: v.record(v.string(), v.unknown()),
  tenantId: v.optional(v.string()),
  isAdmin: v.boolean(),
  isMaster: v.boolean(),
  locked: v.boolean(),
  createdAt: v.number(),
});

export const userList = pagedList(user);

/** POST /user/{id}/password: an administrator's reset (id, username, the administrator's own
 *  password) or a self reset (loginUserId, the old password). */
export const passwordBody = v.union([
  v.object({ loginUserId: id, password: transformedPassword, opUserPassword: transformedPassword }),
  v.object({ id, username: v.optional(v.string()), password: transformedPassword, opUserPassword: transformedPassword }),
], 'rule.required');

/** PUT /user/password: the signed-in user changes their own password. */
export const selfPasswordBody = v.object({ loginUserId: v.optional(id), password: transformedPassword, opUserPassword: transformedPassword });
