// SCIM provisioning tokens (Operations → Provisioning (SCIM)): declaration and access of each call;
// the work is done by server/services/scim-tokens.ts. The SCIM protocol itself is server/scim.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/scim-tokens';
import { Permission } from '../../src/core/permission-codes';
import * as tokens from '../services/scim-tokens';

const tags = ['SCIM'];

export const scimTokenRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getScimTokens, {
    tags,
    access: Permission.Operations,
    summary: 'The SCIM tokens of the tenants of my scope, newest first (never their secrets)',
    handler: ({ actor, query }) => tokens.listScimTokens(ctx, actor, query),
  });

  route(app, gate, calls.postScimTokens, {
    tags,
    access: Permission.Operations,
    summary: 'Create a SCIM token for a tenant of my scope: the secret is answered this once (only its digest is kept)',
    handler: ({ actor, body, raw }) => tokens.createScimToken(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.deleteScimTokensById, {
    tags,
    access: Permission.Operations,
    summary: 'Revoke a SCIM token of a tenant of my scope (its next call answers 401)',
    handler: ({ actor, params, raw }) => tokens.revokeScimToken(ctx, actor, params.id, raw.ip),
  });
};
