// App calls: the list, basics, administrators, the privilege tree (with order), roles with their
// privileges and members, and the user lookup of member pickers.
import type * as v from 'valibot';
import { PAGING } from '../config';
import * as calls from '../contract/apps';
import type { CallAnswer } from '../contract/declare';
import type { app, memberUser, role } from '../schemas/resources';
import type { privilege } from '../schemas/privileges';
import { call, callList, type CallBody } from './call';

export type App = v.InferOutput<typeof app>;
export type Privilege = v.InferOutput<typeof privilege>;
export type Role = v.InferOutput<typeof role>;
export type Member = v.InferOutput<typeof memberUser>;

export interface ListQuery {
  page?: number;
  size?: number;
  searchValue?: string;
}

const byName = ({ page = PAGING.page, size = PAGING.size, searchValue }: ListQuery) => ({
  page,
  size,
  ...(searchValue ? { searchProp: 'name' as const, searchValue } : {}),
});

/** GET /apps: the apps I may manage, paged, searched by name. */
export function list(query: ListQuery = {}): Promise<CallAnswer<typeof calls.getApps>> {
  return callList(calls.getApps, { query: byName(query) });
}

export function get(id: string): Promise<App> {
  return call(calls.getAppsById, { params: { id } });
}

/** Silent: the form shows field errors (a duplicate name) itself. */
export function create(fields: CallBody<typeof calls.postApps>): Promise<App> {
  return call(calls.postApps, { body: fields }, { silent: true });
}

export function update(id: string, fields: CallBody<typeof calls.putAppsById>): Promise<App> {
  return call(calls.putAppsById, { params: { id }, body: fields }, { silent: true });
}

export function remove(id: string): Promise<null> {
  return call(calls.deleteAppsById, { params: { id } });
}

export function admins(id: string): Promise<Member[]> {
  return call(calls.getAppsAdmins, { params: { id } });
}

export function setAdmins(id: string, userIds: string[]): Promise<Member[]> {
  return call(calls.putAppsAdmins, { params: { id }, body: { userIds } });
}

/** A few enabled users whose username or real name contains `text`. */
export function lookupMembers(appId: string, text: string): Promise<Member[]> {
  return call(calls.getAppsMemberLookup, { params: { appId }, query: { searchValue: text } }, { silent: true });
}

export function privileges(appId: string): Promise<Privilege[]> {
  return call(calls.getAppsPrivileges, { params: { appId } });
}

export function addPrivilege(appId: string, fields: CallBody<typeof calls.postAppsPrivileges>): Promise<Privilege> {
  return call(calls.postAppsPrivileges, { params: { appId }, body: fields }, { silent: true });
}

export function updatePrivilege(appId: string, id: string, fields: CallBody<typeof calls.putAppsPrivilegesById>): Promise<Privilege> {
  return call(calls.putAppsPrivilegesById, { params: { appId, id }, body: fields }, { silent: true });
}

export function removePrivilege(appId: string, id: string): Promise<null> {
  return call(calls.deleteAppsPrivilegesById, { params: { appId, id } });
}

/** Puts the children of `parentId` (null: the top level) in the order of `ids`. */
export function orderPrivileges(appId: string, parentId: string | null, ids: string[]): Promise<Privilege[]> {
  return call(calls.putAppsPrivilegesOrder, { params: { appId }, body: { parentId, ids } });
}

export function roles(appId: string, query: ListQuery = {}): Promise<CallAnswer<typeof calls.getAppsRoles>> {
  return callList(calls.getAppsRoles, { params: { appId }, query: byName(query) });
}

export function createRole(appId: string, fields: CallBody<typeof calls.postAppsRoles>): Promise<Role> {
  return call(calls.postAppsRoles, { params: { appId }, body: fields }, { silent: true });
}

export function updateRole(appId: string, id: string, fields: CallBody<typeof calls.putAppsRolesById>): Promise<Role> {
  return call(calls.putAppsRolesById, { params: { appId, id }, body: fields }, { silent: true });
}

export function removeRole(appId: string, id: string): Promise<null> {
  return call(calls.deleteAppsRolesById, { params: { appId, id } });
}

export function rolePrivileges(appId: string, id: string): Promise<string[]> {
  return call(calls.getAppsRolesPrivileges, { params: { appId, id } });
}

export function setRolePrivileges(appId: string, id: string, privilegeIds: string[]): Promise<string[]> {
  return call(calls.putAppsRolesPrivileges, { params: { appId, id }, body: { privilegeIds } });
}

export function roleMembers(appId: string, id: string): Promise<Member[]> {
  return call(calls.getAppsRolesMembers, { params: { appId, id } });
}

export function setRoleMembers(appId: string, id: string, userIds: string[]): Promise<Member[]> {
  return call(calls.putAppsRolesMembers, { params: { appId, id }, body: { userIds } });
}
