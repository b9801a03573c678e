// Tenant calls: the tree of the caller's scope, create, rename/update, move, delete, administrators.
import type * as v from 'valibot';
import * as calls from '../contract/tenants';
import type { memberUser, tenant, tenantCreateBody } from '../schemas/resources';
import { call, type CallBody } from './call';

export type Tenant = v.InferOutput<typeof tenant>;
export type NewTenant = v.InferInput<typeof tenantCreateBody>;
export type Member = v.InferOutput<typeof memberUser>;

/** GET /tenants/tree: every tenant of my scope, flat with parentId, in path order. */
export function tree(): Promise<Tenant[]> {
  return call(calls.getTenantsTree);
}

/** Silent: the form shows field errors itself. */
export function create(body: NewTenant): Promise<Tenant> {
  return call(calls.postTenants, { body }, { silent: true });
}

export function update(id: string, changes: CallBody<typeof calls.putTenantsById>): Promise<Tenant> {
  return call(calls.putTenantsById, { params: { id }, body: changes }, { silent: true });
}

/** Moves a tenant with its subtree under `parentId`. */
export function move(id: string, parentId: string, version: number): Promise<Tenant> {
  return call(calls.putTenantsParent, { params: { id }, body: { parentId, version } }, { silent: true });
}

/** Silent: a tenant with sub-tenants or users answers 409, which the screen explains. */
export function remove(id: string): Promise<null> {
  return call(calls.deleteTenantsById, { params: { id } }, { silent: true });
}

export function admins(id: string): Promise<Member[]> {
  return call(calls.getTenantsAdmins, { params: { id } });
}

export function setAdmins(id: string, userIds: string[]): Promise<Member[]> {
  return call(calls.putTenantsAdmins, { params: { id }, body: { userIds } });
}
