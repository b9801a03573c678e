// Tenant calls: the tree of the caller's scope, create, rename/update, move, delete, administrators.
import type * as v from 'valibot';
import { request } from '../http';
import type { memberUser, tenant, tenantCreateBody } from '../schemas/resources';
import { apiPath } from './path';

export type Tenant = v.InferOutput<typeof tenant>;
export type NewTenant = v.InferInput<typeof tenantCreateBody>;
export type Member = v.InferOutput<typeof memberUser>;

/** GET /tenants/tree: every tenant of my scope, flat with parentId, in path order. */
export function tree(): Promise<Tenant[]> {
  return request<Tenant[]>('GET', '/tenants/tree');
}

/** Silent: the form shows field errors itself. */
export function create(body: NewTenant): Promise<Tenant> {
  return request<Tenant>('POST', '/tenants', { body, silent: true });
}

export function update(id: string, changes: { name?: string; type?: string; description?: string; version: number }): Promise<Tenant> {
  return request<Tenant>('PUT', apiPath`/tenants/${id}`, { body: changes, silent: true });
}

/** Moves a tenant with its subtree under `parentId`. */
export function move(id: string, parentId: string, version: number): Promise<Tenant> {
  return request<Tenant>('PUT', apiPath`/tenants/${id}/parent`, { body: { parentId, version }, silent: true });
}

/** Silent: a tenant with sub-tenants or users answers 409, which the screen explains. */
export function remove(id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/tenants/${id}`, { silent: true });
}

export function admins(id: string): Promise<Member[]> {
  return request<Member[]>('GET', apiPath`/tenants/${id}/admins`);
}

export function setAdmins(id: string, userIds: string[]): Promise<Member[]> {
  return request<Member[]>('PUT', apiPath`/tenants/${id}/admins`, { body: { userIds } });
}
