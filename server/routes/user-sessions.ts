// An administrator's view of another person's sessions (code 2): list them, and sign the person
// out everywhere (every console session and every app grant). Only people of the caller's user
// scope (server/auth/scope.ts): a tenant administrator reaches tenant users of their subtree, and
// anyone else answers 404 as if they did not exist. One's own sessions are managed under /cas/sessions.
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { Permission } from '../../src/core/permission-codes';
import { idParams } from '../../src/core/schemas/common';
import { sessionInfo } from '../../src/core/schemas/auth';
import { manageableUser } from '../auth/scope';
import { actionableUser } from '../auth/grants';
import { forbidden } from '../http/errors';
import { signOutEverywhere } from '../services/sessions';

const userSession = v.omit(sessionInfo, ['current']);

export function userSessionRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const tags = ['Users'];
  defineRoute(app, gate, {
    method: 'GET', url: '/user/:id/sessions', tags, access: Permission.Users, summary: 'The console sessions of a user of my scope, most recently active first',
    params: idParams, response: v.array(userSession),
    handler: async ({ actor, params }) => ctx.sessions.list((await manageableUser(ctx, actor, params.id)).id),
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/user/:id/sessions', tags, access: Permission.Users,
    summary: 'Sign a user of my scope out everywhere: every console session and every app grant end (audited); not for myself (see POST /cas/logout/everywhere)',
    params: idParams, response: v.object({ revoked: v.number() }),
    handler: async ({ actor, params, raw }) => {
      const target = await actionableUser(ctx, actor, params.id);
      if (target.id === actor.id) throw forbidden('Sign out your own sessions in the personal center');
      return { revoked: await signOutEverywhere(ctx, actor, target, raw.ip) };
    },
  });
}
