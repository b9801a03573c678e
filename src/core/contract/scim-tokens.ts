// Calls of server/routes/scim-tokens.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { idParams } from '../schemas/common';
import { scimToken, scimTokenCreateBody, scimTokenCreated, scimTokenList, scimTokenListQuery } from '../schemas/scim-tokens';

/** GET /scim-tokens */
export const getScimTokens = { method: 'GET', path: '/scim-tokens', query: scimTokenListQuery, response: scimTokenList } as const satisfies CallDeclaration;

/** POST /scim-tokens */
export const postScimTokens = {
  method: 'POST',
  path: '/scim-tokens',
  body: scimTokenCreateBody,
  response: scimTokenCreated,
} as const satisfies CallDeclaration;

/** DELETE /scim-tokens/:id */
export const deleteScimTokensById = { method: 'DELETE', path: '/scim-tokens/:id', params: idParams, response: scimToken } as const satisfies CallDeclaration;
