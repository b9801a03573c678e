// GET /cas/session/probe: the session read of a page that may have no session. It answers 200 with
// the session, or with data null for an anonymous visitor, where GET /cas/session answers 401 (which
// browsers log as a red network error on every anonymous visit; older clients rely on that 401).
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/session-probe';
import { Permission } from '../../src/core/permission-codes';
import { sessionAnswerOf } from '../services/session';

export const sessionProbeRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getCasSessionProbe, {
    tags: ['Authentication'],
    access: 'public',
    summary: 'The signed-in user, or data null without a session (200 either way: no error for an anonymous visitor)',
    // The same rule as GET /cas/session: a session with Permission.SelfService.
    handler: async ({ actor }) => (actor?.permissions.includes(Permission.SelfService) ? sessionAnswerOf(ctx, actor) : null),
  });
};
