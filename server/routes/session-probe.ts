// GET /cas/session/probe: the session read of a page that may have no session. It answers 200 with
// the session, or with data null for an anonymous visitor, where GET /cas/session answers 401 (which
// browsers log as a red network error on every anonymous visit; older clients rely on that 401).
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { sessionAnswer } from '../../src/core/schemas/auth';
import { toSessionUser, type Actor } from '../auth/actor';

/** The answer of a session read: the signed-in user, without the features the configuration hides. */
export async function sessionAnswerOf(ctx: Ctx, actor: Actor): Promise<v.InferOutput<typeof sessionAnswer>> {
  const { value: config } = await ctx.settings.get('config');
  const blacklist = config.settings.moduleConfig.featureBlacklist;
  const user = toSessionUser(actor, Array.isArray(blacklist) ? blacklist.map(String) : []);
  return { id: actor.sessionId, user, administeredApps: actor.ownedApps };
}

export function sessionProbeRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/cas/session/probe', tags: ['Authentication'], access: 'public',
    summary: 'The signed-in user, or data null without a session (200 either way: no error for an anonymous visitor)',
    response: v.nullable(sessionAnswer),
    // The same rule as GET /cas/session: a session with permission code '0'.
    handler: async ({ actor }) => (actor?.permissions.includes('0') ? sessionAnswerOf(ctx, actor) : null),
  });
}
