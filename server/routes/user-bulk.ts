// Bulk actions of the user list (code 2): enable, disable, unlock or delete several users in one
// call. Each user goes through exactly the checks of the single action — the caller's user scope
// (server/auth/scope.ts), the grant rules (server/auth/grants.ts), the last platform administrator
// kept — one after the other (so "the last administrator" is judged on the latest state), and the
// answer reports each user's outcome. One's own account is never part of a bulk action.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { defineRoute, type Gate } from '../http/route';
import { Permission } from '../../src/core/permission-codes';
import { bulkUserAnswer, bulkUserBody, type BulkUserAction } from '../../src/core/schemas/user-bulk';
import { Status } from '../../src/core/enums';
import { manageableUser } from '../auth/scope';
import { ApiError, forbidden } from '../http/errors';
import { answerLanguage, localizeMessage } from '../http/language';
import { deleteUser, updateUser } from '../services/users';
import { unlockUser } from './auth';

async function actOn(ctx: Ctx, actor: Actor, action: BulkUserAction, id: string, ip: string): Promise<void> {
  if (id === actor.id) throw forbidden('Your own account is not changed by a bulk action');
  if (action === 'delete') return deleteUser(ctx, actor, id, ip);
  if (action === 'unlock') return unlockUser(ctx, actor, id, ip);
  const { version } = await manageableUser(ctx, actor, id);
  await updateUser(ctx, actor, id, { availabilityStatus: action === 'enable' ? Status.Enable : Status.Disabled, version }, ip);
}

export function userBulkRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'POST', url: '/user/bulk', tags: ['Users'], access: Permission.Users,
    summary: 'Enable, disable, unlock or delete several users of my scope; each is checked as if alone and answered with its own outcome (a user out of scope: 404)',
    body: bulkUserBody, response: bulkUserAnswer,
    handler: async ({ actor, body, raw }) => {
      const language = answerLanguage(raw.headers['accept-language']);
      const results = [];
      for (const id of new Set(body.ids)) {
        try {
          await actOn(ctx, actor, body.action, id, raw.ip);
          results.push({ id, ok: true, status: 200, message: '' });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ id, ok: false, status: error.status, message: localizeMessage(error.message, language) });
        }
      }
      return { results };
    },
  });
}
