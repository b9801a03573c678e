// Bulk actions of the user list (POST /user/bulk, server/routes/user-bulk.ts): enable, disable,
// unlock or delete several users in one call. Each user goes through exactly the checks of the
// single action — the caller's user scope (server/auth/scope.ts), the grant rules
// (server/auth/grants.ts), the last platform administrator kept — one after the other (so "the
// last administrator" is judged on the latest state), and the answer reports each user's outcome.
// One's own account is never part of a bulk action.
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import type { bulkUserBody, BulkUserAction } from '../../src/core/schemas/user-bulk';
import { Status } from '../../src/core/enums';
import { manageableUser } from '../auth/scope';
import { ApiError, forbidden } from '../http/errors';
import { localizeMessage, type AnswerLanguage } from '../http/language';
import { deleteUser, unlockUser, updateUser } from './users';

async function actOn(ctx: Ctx, actor: Actor, action: BulkUserAction, id: string, ip: string): Promise<void> {
  if (id === actor.id) throw forbidden('Your own account is not changed by a bulk action');
  if (action === 'delete') return deleteUser(ctx, actor, id, ip);
  if (action === 'unlock') return unlockUser(ctx, actor, id, ip);
  const { version } = await manageableUser(ctx, actor, id);
  await updateUser(ctx, actor, id, { availabilityStatus: action === 'enable' ? Status.Enable : Status.Disabled, version }, ip);
}

type Outcome = { id: string; ok: boolean; status: number; message: string };

/** Each user's outcome, its refusal in the caller's language; an error that is no answer (a fault) fails the whole call. */
async function actOnEach(ctx: Ctx, actor: Actor, action: BulkUserAction, ids: Iterable<string>, ip: string, language: AnswerLanguage): Promise<Outcome[]> {
  const results: Outcome[] = [];
  for (const id of ids) {
    try {
      await actOn(ctx, actor, action, id, ip);
      results.push({ id, ok: true, status: 200, message: '' });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.push({ id, ok: false, status: error.status, message: localizeMessage(error.message, language) });
    }
  }
  return results;
}

export async function actOnUsers(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof bulkUserBody>, ip: string, language: AnswerLanguage) {
  const ids = new Set(body.ids);
  // One change: the bulk action's own event with each user's event beneath it; each user's change a
  // savepoint of it (a refused user leaves the others), a fault none at all. The bulk event says how
  // many were done and refused, and is a success only when someone was done.
  const bulk = { action: 'user.bulk', actor, tenantId: actor.user.tenantId, ip, detail: { action: body.action, users: ids.size } } as const;
  const results = await ctx.audit.group(
    bulk,
    () => actOnEach(ctx, actor, body.action, ids, ip, language),
    (outcomes) => {
      const done = outcomes.filter((outcome) => outcome.ok).length;
      return { success: done > 0, detail: { ...bulk.detail, done, refused: outcomes.length - done } };
    },
  );
  return { results };
}
