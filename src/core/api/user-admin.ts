// Calls of the user administration screen beyond the API's basics (users.ts): the list with sorting and
// the tenant filter, updates guarded by `version`, the status switch, and the roles per app.
import type * as v from 'valibot';
import { PAGING } from '../config';
import { request, requestList } from '../http';
import type { SortOrder, UserSortProp, userAppRoles } from '../schemas/admin';
import type { BulkUserAction, bulkUserResult } from '../schemas/user-bulk';
import type { userSearchProps, userUpdateBody } from '../schemas/users';
import type { AvailabilityStatus, PagedList, User } from '../types';
import { apiPath } from './path';
import type { SessionInfo } from './account';

/** A user as the administration calls answer it. */
export type AdminUser = User;
export type UserAppRoles = v.InferOutput<typeof userAppRoles>;
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
export function listUsers(query: UserQuery = {}): Promise<PagedList<AdminUser>> {
  return requestList<AdminUser>('/user', { page: PAGING.page, size: PAGING.size, ...query });
}

/** The changes of PUT /user/{id}, with the version they were based on (a stale one answers 409). */
export type UserChanges = Omit<v.InferInput<typeof userUpdateBody>, 'id' | 'username'>;

/** PUT /user/{id}: '' clears a field; a change of the phone or email also takes the caller's own
 *  current password, transformed, as `currentPassword`. Silent: the form shows what went wrong
 *  (400 fields, 409). */
export function updateUser(id: string, changes: UserChanges): Promise<AdminUser> {
  return request<AdminUser>('PUT', apiPath`/user/${id}`, { body: changes, silent: true });
}

/** Enables (1) or disables (2) a user; disabling ends their sessions. */
export function setStatus(user: Pick<AdminUser, 'id' | 'version'>, availabilityStatus: AvailabilityStatus): Promise<AdminUser> {
  return request<AdminUser>('PUT', apiPath`/user/${user.id}`, { body: { availabilityStatus, version: user.version } });
}

/** GET /user/{id}/roles: every app with its roles, each marked when the user holds it. */
export function appRoles(id: string): Promise<UserAppRoles[]> {
  return request<UserAppRoles[]>('GET', apiPath`/user/${id}/roles`);
}

/** PUT /user/{id}/roles/{appId}: the roles the user holds in that app. */
export function setAppRoles(id: string, appId: string, roleIds: string[]): Promise<UserAppRoles[]> {
  return request<UserAppRoles[]>('PUT', apiPath`/user/${id}/roles/${appId}`, { body: { roleIds } });
}

/** A console session of a user, as an administrator sees it (a public handle only). */
export type UserSession = Omit<SessionInfo, 'current'>;

/** GET /user/{id}/sessions: the user's console sessions, most recently active first. */
export function userSessions(id: string): Promise<UserSession[]> {
  return request<UserSession[]>('GET', apiPath`/user/${id}/sessions`);
}

/** DELETE /user/{id}/sessions: signs the user out everywhere (console and apps); answers how many sessions ended. */
export function signOutEverywhere(id: string): Promise<{ revoked: number }> {
  return request<{ revoked: number }>('DELETE', apiPath`/user/${id}/sessions`);
}

/** DELETE /user/{id}/sessions/{sessionId}: ends one console session of the user; the others go on. */
export function endSession(id: string, sessionId: string): Promise<null> {
  return request<null>('DELETE', apiPath`/user/${id}/sessions/${sessionId}`);
}

export type BulkUserResult = v.InferOutput<typeof bulkUserResult>;

/** POST /user/bulk: one action on several users, each checked on its own; answers each user's outcome. */
export async function bulkUsers(action: BulkUserAction, ids: string[]): Promise<BulkUserResult[]> {
  return (await request<{ results: BulkUserResult[] }>('POST', '/user/bulk', { body: { action, ids } })).results;
}
