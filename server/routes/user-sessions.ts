// An administrator's view of another person's sessions (code 2): list them, and sign the person
// out of one session or everywhere (every console session and every app grant). Only people of the caller's user
// scope (server/auth/scope.ts): a tenant administrator reaches tenant users of their subtree, and
// anyone else answers 404 as if they did not exist. One's own sessions are managed under /cas/sessions.
// The work is done by server/services/sessions.ts.
import type { FastifyPluginAsync } from 'fastify';
import * as v from 'valibot';
import { defineRoute, type RouteOptions } from '../http/route';
import { Permission } from '../../src/core/permission-codes';
import { id, idParams, okAnswer } from '../../src/core/schemas/common';
import { sessionInfo } from '../../src/core/schemas/auth';
import { endUserSession, sessionsOfUser, signUserOutEverywhere } from '../services/sessions';

const tags = ['Users'];
const userSession = v.omit(sessionInfo, ['current']);
const oneSessionParams = v.object({ id, sessionId: id });

export const userSessionRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/user/:id/sessions',
    tags,
    access: Permission.Users,
    summary: 'The console sessions of a user of my scope, most recently active first',
    params: idParams,
    response: v.array(userSession),
    handler: ({ actor, params }) => sessionsOfUser(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/user/:id/sessions',
    tags,
    access: Permission.Users,
    summary:
      'Sign a user of my scope out everywhere: every console session and every app grant end (audited); not for myself (see POST /cas/logout/everywhere)',
    params: idParams,
    response: v.object({ revoked: v.number() }),
    handler: ({ actor, params, raw }) => signUserOutEverywhere(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/user/:id/sessions/:sessionId',
    tags,
    access: Permission.Users,
    summary: 'End one console session of a user of my scope (audited); their other sessions and app sign-ins go on; 404 for a session that is not theirs',
    params: oneSessionParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => endUserSession(ctx, actor, params.id, params.sessionId, raw.ip),
  });
};
