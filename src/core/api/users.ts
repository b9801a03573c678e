// user calls.
import { PAGING } from '../config';
import { request, requestList, type Query } from '../http';
import { transformNewPassword, transformPassword } from '../password';
import type * as v from 'valibot';
import type { basicInfo as basicInfoAnswer, profileAnswer } from '../schemas/users';
import type { AdminResetPayload, PagedList, SelfPasswordPayload, User, UserExtraProp } from '../types';
import { apiPath } from './path';

export interface UserListQuery {
  page?: number;
  size?: number;
  /** The field searched (e.g. 'username'); with `searchValue` it becomes a field filter. */
  searchProp?: string;
  searchValue?: string;
}

const LIST_PARAMS = new Set(['page', 'size', 'searchProp', 'searchValue']);

/** GET /user: page, size, and searchProp/searchValue also sent as the field filter `<searchProp>=<searchValue>`;
 *  empty values are removed. A non-array `list` fails with 'Invalid list result'. */
export function list(query: UserListQuery = {}): Promise<PagedList<User>> {
  const { page = PAGING.page, size = PAGING.size, searchProp, searchValue } = query;
  const filter: Query = searchProp && !LIST_PARAMS.has(searchProp) ? { [searchProp]: searchValue } : {};
  return requestList<User>('/user', { page, size, searchProp, searchValue, ...filter });
}

export function get(id: string): Promise<User> {
  return request<User>('GET', apiPath`/user/${id}`);
}

/** The fields of a user that a form edits. */
export type UserFields = Partial<
  Pick<User, 'realName' | 'email' | 'mobilePhone' | 'description' | 'avatar' | 'availabilityStatus' | 'tenantId' | 'version'>
> & {
  extraProp?: UserExtraProp;
};

/** What a person may see and change about themselves (GET /user/{id}/basic_info). */
export type BasicInfo = v.InferOutput<typeof basicInfoAnswer>;

/** The answer of PUT /user/profile and basic_info: a new email address or mobile phone is pending
 *  (a code was sent to it) until confirmed with `confirmContact`. */
export type ProfileAnswer = v.InferOutput<typeof profileAnswer>;

export function basicInfo(id: string): Promise<BasicInfo> {
  return request<BasicInfo>('GET', apiPath`/user/${id}/basic_info`);
}

/** PUT /user/{id}/basic_info. A change of the phone or email also takes the caller's own current
 *  password, transformed (transformPassword), as `currentPassword`. */
export function updateBasicInfo(id: string, fields: UserFields & { currentPassword?: string }): Promise<ProfileAnswer> {
  return request<ProfileAnswer>('PUT', apiPath`/user/${id}/basic_info`, { body: fields });
}
export type ContactChannel = 'email' | 'mobilePhone';

/** PUT /user/profile: the signed-in user's own profile. */
export function updateProfile(
  profile: Pick<UserFields, 'realName' | 'avatar' | 'mobilePhone' | 'email'> & { currentPassword?: string },
): Promise<ProfileAnswer> {
  return request<ProfileAnswer>('PUT', '/user/profile', { body: profile });
}

/** POST /user/profile/contact/confirm: applies my pending address of `channel` with the code sent to it. */
export function confirmContact(channel: ContactChannel, code: string): Promise<BasicInfo> {
  return request<BasicInfo>('POST', '/user/profile/contact/confirm', { body: { channel, code } });
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
export async function create(user: NewUser): Promise<User> {
  const password = await transformNewPassword(user.password);
  return request<User>('POST', '/user', { body: { ...withoutEmpty(user), password, extraProp: user.extraProp ?? {} } });
}

export function remove(id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/user/${id}`);
}

/** POST /user/{id}/password with a payload whose passwords are already transformed. */
export function resetPassword(id: string, payload: AdminResetPayload | SelfPasswordPayload): Promise<void> {
  return request<void>('POST', apiPath`/user/${id}/password`, { body: payload });
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
export function updatePassword(payload: SelfPasswordPayload): Promise<void> {
  return request<void>('PUT', '/user/password', { body: payload });
}

/** DELETE /authc/user/{id}/login/unlock: unlocks a user locked after failed sign-ins. */
export function unlock(id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/authc/user/${id}/login/unlock`);
}
