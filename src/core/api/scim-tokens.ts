// SCIM provisioning tokens of the tenants of my scope: list, create (the secret answered once), revoke.
import { PAGING } from '../config';
import { request, requestList } from '../http';
import type { ScimToken, ScimTokenCreated } from '../schemas/scim-tokens';
import type { PagedList } from '../types';
import { apiPath } from './path';

export type { ScimToken, ScimTokenCreated };

export function list({ page = PAGING.page, size = PAGING.size }: { page?: number; size?: number } = {}): Promise<PagedList<ScimToken>> {
  return requestList<ScimToken>('/scim-tokens', { page, size });
}

/** `currentPassword`: the caller's own, transformed (transformPassword); the server re-checks it.
 *  Silent: the form shows field errors itself. */
export function create(body: { tenantId: string; name: string; currentPassword: string }): Promise<ScimTokenCreated> {
  return request<ScimTokenCreated>('POST', '/scim-tokens', { body, silent: true });
}

export function revoke(id: string): Promise<ScimToken> {
  return request<ScimToken>('DELETE', apiPath`/scim-tokens/${id}`);
}
