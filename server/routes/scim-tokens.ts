// SCIM provisioning tokens (Operations → Provisioning (SCIM)): declaration and access of each call;
// the work is done by server/services/scim-tokens.ts. The SCIM protocol itself is server/scim.
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams } from '../../src/core/schemas/common';
import { scimToken, scimTokenCreateBody, scimTokenCreated, scimTokenList, scimTokenListQuery } from '../../src/core/schemas/scim-tokens';
import { Permission } from '../../src/core/permission-codes';
import * as tokens from '../services/scim-tokens';

const tags = ['SCIM'];

export const scimTokenRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/scim-tokens',
    tags,
    access: Permission.Operations,
    summary: 'The SCIM tokens of the tenants of my scope, newest first (never their secrets)',
    query: scimTokenListQuery,
    response: scimTokenList,
    handler: ({ actor, query }) => tokens.listScimTokens(ctx, actor, query),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/scim-tokens',
    tags,
    access: Permission.Operations,
    summary: 'Create a SCIM token for a tenant of my scope: the secret is answered this once (only its digest is kept)',
    body: scimTokenCreateBody,
    response: scimTokenCreated,
    handler: ({ actor, body, raw }) => tokens.createScimToken(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/scim-tokens/:id',
    tags,
    access: Permission.Operations,
    summary: 'Revoke a SCIM token of a tenant of my scope (its next call answers 401)',
    params: idParams,
    response: scimToken,
    handler: ({ actor, params, raw }) => tokens.revokeScimToken(ctx, actor, params.id, raw.ip),
  });
};
