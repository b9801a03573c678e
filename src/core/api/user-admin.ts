// Calls of the user administration screen beyond the API's basics (users.ts): the list with sorting and
// the tenant filter, updates guarded by `version`, the status switch, and the roles per app.
import { PAGING } from '../config';
import type { CallAnswer, CallInput } from '../contract/declare';
import { postUserBulk } from '../contract/user-bulk';
import { deleteUserSessions, deleteUserSessionsBySessionId, getUserSessions } from '../contract/user-sessions';
import { getUser, getUserRoles, putUserById, putUserRolesByAppId } from '../contract/users';
import type { SortOrder, UserSortProp } from '../schemas/admin';
import type { BulkUserAction } from '../schemas/user-bulk';
import type { userSearchProps } from '../schemas/users';
import type { AvailabilityStatus } from '../types';
import { call, callList } from './call';

/** A user as the administration calls answer it. */
export type AdminUser = CallAnswer<typeof putUserById>;
export type UserAppRoles = CallAnswer<typeof getUserRoles>[number];
export type UserSearchProp = (typeof userSearchProps)[number];

export interface UserQuery {
  page?: number;
  size?: number;
  searchProp?: UserSearchProp;
  searchValue?: string;
  sort?: UserSortProp;
  order?: SortOrder;
  /** Users of this tenant's subtree. */
  tenantId?: string;
  tenantMatch?: 'subtree' | 'exact';
}

/** GET /user, paged on the server; empty values are not sent. */
export function listUsers(query: UserQuery = {}): Promise<CallAnswer<typeof getUser>> {
  return callList(getUser, { query: { page: PAGING.page, size: PAGING.size, ...query } });
}

/** The changes of PUT /user/{id}, with the version they were based on (a stale one answers 409). */
export type UserChanges = Omit<CallInput<typeof putUserById>['body'], 'id' | 'username'>;

/** PUT /user/{id}: '' clears a field; a change of the phone or email also takes the caller's own
 *  current password, transformed, as `currentPassword`. Silent: the form shows what went wrong
 *  (400 fields, 409). */
export function updateUser(id: string, changes: UserChanges): Promise<AdminUser> {
  return call(putUserById, { params: { id }, body: changes }, { silent: true });
}

/** Enables (1) or disables (2) a user; disabling ends their sessions. */
export function setStatus(user: Pick<AdminUser, 'id' | 'version'>, availabilityStatus: AvailabilityStatus): Promise<AdminUser> {
  return call(putUserById, { params: { id: user.id }, body: { availabilityStatus, version: user.version } });
}

/** GET /user/{id}/roles: every app with its roles, each marked when the user holds it. */
export function appRoles(id: string): Promise<UserAppRoles[]> {
  return call(getUserRoles, { params: { id } });
}

/** PUT /user/{id}/roles/{appId}: the roles the user holds in that app. */
export function setAppRoles(id: string, appId: string, roleIds: string[]): Promise<UserAppRoles[]> {
  return call(putUserRolesByAppId, { params: { id, appId }, body: { roleIds } });
}

/** A console session of a user, as an administrator sees it (a public handle only). */
export type UserSession = CallAnswer<typeof getUserSessions>[number];

/** GET /user/{id}/sessions: the user's console sessions, most recently active first. */
export function userSessions(id: string): Promise<UserSession[]> {
  return call(getUserSessions, { params: { id } });
}

/** DELETE /user/{id}/sessions: signs the user out everywhere (console and apps); answers how many sessions ended. */
export function signOutEverywhere(id: string): Promise<CallAnswer<typeof deleteUserSessions>> {
  return call(deleteUserSessions, { params: { id } });
}

/** DELETE /user/{id}/sessions/{sessionId}: ends one console session of the user; the others go on. */
export function endSession(id: string, sessionId: string): Promise<null> {
  return call(deleteUserSessionsBySessionId, { params: { id, sessionId } });
}

export type BulkUserResult = CallAnswer<typeof postUserBulk>['results'][number];

/** POST /user/bulk: one action on several users, each checked on its own; answers each user's outcome. */
export async function bulkUsers(action: BulkUserAction, ids: string[]): Promise<BulkUserResult[]> {
  return (await call(postUserBulk, { body: { action, ids } })).results;
}
