// SCIM provisioning tokens of the tenants of my scope: list, create (the secret answered once), revoke.
import { PAGING } from '../config';
import * as calls from '../contract/scim-tokens';
import type { CallAnswer } from '../contract/declare';
import type { ScimToken, ScimTokenCreated } from '../schemas/scim-tokens';
import { call, callList, type CallBody } from './call';

export type { ScimToken, ScimTokenCreated };

export function list({ page = PAGING.page, size = PAGING.size }: { page?: number; size?: number } = {}): Promise<CallAnswer<typeof calls.getScimTokens>> {
  return callList(calls.getScimTokens, { query: { page, size } });
}

/** `currentPassword`: the caller's own, transformed (transformPassword); the server re-checks it.
 *  Silent: the form shows field errors itself. */
export function create(body: CallBody<typeof calls.postScimTokens>): Promise<ScimTokenCreated> {
  return call(calls.postScimTokens, { body }, { silent: true });
}

export function revoke(id: string): Promise<ScimToken> {
  return call(calls.deleteScimTokensById, { params: { id } });
}
