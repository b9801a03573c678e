// App calls: the list, basics, administrators, the privilege tree (with order), roles with their
// privileges and members, and the user lookup of member pickers.
import type * as v from 'valibot';
import { PAGING } from '../config';
import { request, requestList } from '../http';
import type { app, appCreateBody, memberUser, role } from '../schemas/resources';
import type { privilege, privilegeBody } from '../schemas/privileges';
import type { PagedList } from '../types';
import { apiPath } from './path';

export type App = v.InferOutput<typeof app>;
export type AppFields = v.InferInput<typeof appCreateBody>;
export type Privilege = v.InferOutput<typeof privilege>;
export type PrivilegeFields = v.InferInput<typeof privilegeBody>;
export type Role = v.InferOutput<typeof role>;
export type Member = v.InferOutput<typeof memberUser>;

export interface ListQuery {
  page?: number;
  size?: number;
  searchValue?: string;
}

/** GET /apps: the apps I may manage, paged, searched by name. */
export function list({ page = PAGING.page, size = PAGING.size, searchValue }: ListQuery = {}): Promise<PagedList<App>> {
  return requestList<App>('/apps', { page, size, ...(searchValue ? { searchProp: 'name', searchValue } : {}) });
}

export function get(id: string): Promise<App> {
  return request<App>('GET', apiPath`/apps/${id}`);
}

/** Silent: the form shows field errors (a duplicate name) itself. */
export function create(fields: AppFields): Promise<App> {
  return request<App>('POST', '/apps', { body: fields, silent: true });
}

export function update(id: string, fields: Partial<AppFields> & { version: number }): Promise<App> {
  return request<App>('PUT', apiPath`/apps/${id}`, { body: fields, silent: true });
}

export function remove(id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/apps/${id}`);
}

export function admins(id: string): Promise<Member[]> {
  return request<Member[]>('GET', apiPath`/apps/${id}/admins`);
}

export function setAdmins(id: string, userIds: string[]): Promise<Member[]> {
  return request<Member[]>('PUT', apiPath`/apps/${id}/admins`, { body: { userIds } });
}

/** A few enabled users whose username or real name contains `text`. */
export function lookupMembers(appId: string, text: string): Promise<Member[]> {
  return request<Member[]>('GET', apiPath`/apps/${appId}/member-lookup`, { query: { searchValue: text }, silent: true });
}

export function privileges(appId: string): Promise<Privilege[]> {
  return request<Privilege[]>('GET', apiPath`/apps/${appId}/privileges`);
}

export function addPrivilege(appId: string, fields: PrivilegeFields): Promise<Privilege> {
  return request<Privilege>('POST', apiPath`/apps/${appId}/privileges`, { body: fields, silent: true });
}

export function updatePrivilege(appId: string, id: string, fields: Partial<PrivilegeFields>): Promise<Privilege> {
  return request<Privilege>('PUT', apiPath`/apps/${appId}/privileges/${id}`, { body: fields, silent: true });
}

export function removePrivilege(appId: string, id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/apps/${appId}/privileges/${id}`);
}

/** Puts the children of `parentId` (null: the top level) in the order of `ids`. */
export function orderPrivileges(appId: string, parentId: string | null, ids: string[]): Promise<Privilege[]> {
  return request<Privilege[]>('PUT', apiPath`/apps/${appId}/privileges/order`, { body: { parentId, ids } });
}

export function roles(appId: string, { page = PAGING.page, size = PAGING.size, searchValue }: ListQuery = {}): Promise<PagedList<Role>> {
  return requestList<Role>(apiPath`/apps/${appId}/roles`, { page, size, ...(searchValue ? { searchProp: 'name', searchValue } : {}) });
}

export function createRole(appId: string, fields: { name: string; description?: string }): Promise<Role> {
  return request<Role>('POST', apiPath`/apps/${appId}/roles`, { body: fields, silent: true });
}

export function updateRole(appId: string, id: string, fields: { name?: string; description?: string; version: number }): Promise<Role> {
  return request<Role>('PUT', apiPath`/apps/${appId}/roles/${id}`, { body: fields, silent: true });
}

export function removeRole(appId: string, id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/apps/${appId}/roles/${id}`);
}

export function rolePrivileges(appId: string, id: string): Promise<string[]> {
  return request<string[]>('GET', apiPath`/apps/${appId}/roles/${id}/privileges`);
}

export function setRolePrivileges(appId: string, id: string, privilegeIds: string[]): Promise<string[]> {
  return request<string[]>('PUT', apiPath`/apps/${appId}/roles/${id}/privileges`, { body: { privilegeIds } });
}

export function roleMembers(appId: string, id: string): Promise<Member[]> {
  return request<Member[]>('GET', apiPath`/apps/${appId}/roles/${id}/members`);
}

export function setRoleMembers(appId: string, id: string, userIds: string[]): Promise<Member[]> {
  return request<Member[]>('PUT', apiPath`/apps/${appId}/roles/${id}/members`, { body: { userIds } });
}
