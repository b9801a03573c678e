// The session as the API answers it (GET /cas/session in server/routes/auth.ts, GET
// /cas/session/probe in server/routes/session-probe.ts).
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { sessionAnswer } from '../../src/core/schemas/auth';
import { toSessionUser, type Actor } from '../auth/actor';

/** The answer of a session read: the signed-in user, without the features the configuration hides. */
export async function sessionAnswerOf(ctx: Ctx, actor: Actor): Promise<v.InferOutput<typeof sessionAnswer>> {
  const { value: config } = await ctx.settings.get('config');
  const blacklist = config.settings.moduleConfig.featureBlacklist;
  const user = toSessionUser(actor, Array.isArray(blacklist) ? blacklist.map(String) : []);
  return { id: actor.sessionId, user, administeredApps: actor.ownedApps };
}
