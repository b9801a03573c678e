// An administrator's view of another person's sessions (code 2): list them, and sign the person
// out of one session or everywhere (every console session and every app grant). Only people of the caller's user
// scope (server/auth/scope.ts): a tenant administrator reaches tenant users of their subtree, and
// anyone else answers 404 as if they did not exist. One's own sessions are managed under /cas/sessions.
// The work is done by server/services/sessions.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/user-sessions';
import { Permission } from '../../src/core/permission-codes';
import { endUserSession, sessionsOfUser, signUserOutEverywhere } from '../services/sessions';

const tags = ['Users'];

export const userSessionRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getUserSessions, {
    tags,
    access: Permission.Users,
    summary: 'The console sessions of a user of my scope, most recently active first',
    handler: ({ actor, params }) => sessionsOfUser(ctx, actor, params.id),
  });

  route(app, gate, calls.deleteUserSessions, {
    tags,
    access: Permission.Users,
    summary:
      'Sign a user of my scope out everywhere: every console session and every app grant end (audited); not for myself (see POST /cas/logout/everywhere)',
    handler: ({ actor, params, raw }) => signUserOutEverywhere(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.deleteUserSessionsBySessionId, {
    tags,
    access: Permission.Users,
    summary: 'End one console session of a user of my scope (audited); their other sessions and app sign-ins go on; 404 for a session that is not theirs',
    handler: ({ actor, params, raw }) => endUserSession(ctx, actor, params.id, params.sessionId, raw.ip),
  });
};
