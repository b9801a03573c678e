// Bulk actions of the user list (code 2): enable, disable, unlock or delete several users in one
// call, each checked as if alone. The work is done by server/services/user-bulk.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/user-bulk';
import { Permission } from '../../src/core/permission-codes';
import { answerLanguage } from '../http/language';
import { actOnUsers } from '../services/user-bulk';

export const userBulkRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.postUserBulk, {
    tags: ['Users'],
    access: Permission.Users,
    summary:
      'Enable, disable, unlock or delete several users of my scope; each is checked as if alone and answered with its own outcome (a user out of scope: 404)',
    handler: ({ actor, body, raw }) => actOnUsers(ctx, actor, body, raw.ip, answerLanguage(raw.headers['accept-language'])),
  });
};
