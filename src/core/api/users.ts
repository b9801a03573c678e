// user calls.
import { PAGING } from '../config';
import { deleteAuthcUserLoginUnlock } from '../contract/auth';
import type { CallAnswer, CallInput } from '../contract/declare';
import {
  deleteUserById,
  getUser,
  getUserBasicInfo,
  getUserById,
  postUser,
  postUserPassword,
  postUserProfileContactConfirm,
  putUserBasicInfo,
  putUserPassword,
  putUserProfile,
} from '../contract/users';
import type { Query } from '../http';
import { transformNewPassword, transformPassword } from '../password';
import type { AdminResetPayload, SelfPasswordPayload, User, UserExtraProp } from '../types';
import { call, callList } from './call';

export interface UserListQuery {
  page?: number;
  size?: number;
  /** The field searched (e.g. 'username'); with `searchValue` it becomes a field filter. */
  searchProp?: NonNullable<CallInput<typeof getUser>['query']>['searchProp'];
  searchValue?: string;
}

const LIST_PARAMS = new Set(['page', 'size', 'searchProp', 'searchValue']);

/** GET /user: page, size, and searchProp/searchValue also sent as the field filter `<searchProp>=<searchValue>`;
 *  empty values are removed. A non-array `list` fails with 'Invalid list result'. */
export function list(query: UserListQuery = {}): Promise<CallAnswer<typeof getUser>> {
  const { page = PAGING.page, size = PAGING.size, searchProp, searchValue } = query;
  const filter: Query = searchProp && !LIST_PARAMS.has(searchProp) ? { [searchProp]: searchValue } : {};
  return callList(getUser, { query: { page, size, searchProp, searchValue, ...filter } });
}

export function get(id: string): Promise<CallAnswer<typeof getUserById>> {
  return call(getUserById, { params: { id } });
}

/** The fields of a user that a form edits. */
export type UserFields = Partial<
  Pick<User, 'realName' | 'email' | 'mobilePhone' | 'description' | 'avatar' | 'availabilityStatus' | 'tenantId' | 'version'>
> & {
  extraProp?: UserExtraProp;
};

/** What a person may see and change about themselves (GET /user/{id}/basic_info). */
export type BasicInfo = CallAnswer<typeof getUserBasicInfo>;

/** The answer of PUT /user/profile and basic_info: a new email address or mobile phone is pending
 *  (a code was sent to it) until confirmed with `confirmContact`. */
export type ProfileAnswer = CallAnswer<typeof putUserProfile>;

export function basicInfo(id: string): Promise<BasicInfo> {
  return call(getUserBasicInfo, { params: { id } });
}

/** PUT /user/{id}/basic_info. A change of the phone or email also takes the caller's own current
 *  password, transformed (transformPassword), as `currentPassword`. */
export function updateBasicInfo(id: string, fields: CallInput<typeof putUserBasicInfo>['body']): Promise<ProfileAnswer> {
  return call(putUserBasicInfo, { params: { id }, body: fields });
}
export type ContactChannel = 'email' | 'mobilePhone';

/** PUT /user/profile: the signed-in user's own profile. */
export function updateProfile(
  profile: Pick<CallInput<typeof putUserProfile>['body'], 'realName' | 'avatar' | 'mobilePhone' | 'email' | 'currentPassword'>,
): Promise<ProfileAnswer> {
  return call(putUserProfile, { body: profile });
}

/** POST /user/profile/contact/confirm: applies my pending address of `channel` with the code sent to it. */
export function confirmContact(channel: ContactChannel, code: string): Promise<BasicInfo> {
  return call(postUserProfileContactConfirm, { body: { channel, code } });
}

export interface NewUser extends UserFields {
  username: string;
  realName: string;
  /** The plain password: checked by the policy, then transformed. */
  password: string;
}

/** Removes fields that are undefined, null or '' ("empty fields removed"). */
function withoutEmpty<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && field !== null && field !== '')) as Partial<T>;
}

/** POST /user: empty fields removed, `extraProp` added (empty unless given), password transformed. */
export async function create(user: NewUser): Promise<CallAnswer<typeof postUser>> {
  const password = await transformNewPassword(user.password);
  return call(postUser, { body: { ...withoutEmpty(user), username: user.username, realName: user.realName, password, extraProp: user.extraProp ?? {} } });
}

export async function remove(id: string): Promise<void> {
  await call(deleteUserById, { params: { id } });
}

/** POST /user/{id}/password with a payload whose passwords are already transformed. */
export async function resetPassword(id: string, payload: AdminResetPayload | SelfPasswordPayload): Promise<void> {
  await call(postUserPassword, { params: { id }, body: payload });
}

/** An administrator resets another user's password with their own password. Plain passwords in. */
export async function resetPasswordAsAdmin(input: { id: string; username: string; newPassword: string; adminPassword: string }): Promise<void> {
  const [password, opUserPassword] = await Promise.all([transformNewPassword(input.newPassword), transformPassword(input.adminPassword)]);
  return resetPassword(input.id, { id: input.id, username: input.username, password, opUserPassword });
}

/** A user resets their own password with the old one. Plain passwords in. */
export async function resetOwnPassword(input: { userId: string; oldPassword: string; newPassword: string }): Promise<void> {
  const [password, opUserPassword] = await Promise.all([transformNewPassword(input.newPassword), transformPassword(input.oldPassword)]);
  return resetPassword(input.userId, { loginUserId: input.userId, password, opUserPassword });
}

/** PUT /user/password (a body of our own design): the self payload. */
export async function updatePassword(payload: SelfPasswordPayload): Promise<void> {
  await call(putUserPassword, { body: payload });
}

/** DELETE /authc/user/{id}/login/unlock: unlocks a user locked after failed sign-ins. */
export async function unlock(id: string): Promise<void> {
  await call(deleteAuthcUserLoginUnlock, { params: { id } });
}
