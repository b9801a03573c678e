// Signing a person out everywhere: every console session (but, when asked, the caller's current
// one) and every app grant end, audited. An administrator does it to a person of their scope
// (DELETE /user/:id/sessions, server/routes/user-sessions.ts), a person to themselves (POST
// /cas/logout/everywhere); an administrator also lists a person's sessions.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { endEveryAccess } from '../oidc/revoke';
import { manageableUser } from '../auth/scope';
import { actionableUser } from '../auth/grants';
import { forbidden, notFound } from '../http/errors';

/** Ends the target's access (endEveryAccess) and records what ended; answers how many console sessions
 *  ended. A sign-out that ended nothing (the person was signed in nowhere, or a parallel one ended it
 *  all first) is no event and writes no record: the answer's `revoked: 0` says so to the caller, as
 *  a repeated revoke of a SCIM token answers with no second record (server/services/scim-tokens.ts). */
export async function signOutEverywhere(
  ctx: Ctx,
  actor: Actor,
  target: { id: string; tenantId: string | null },
  ip: string,
  keepSessionId?: string,
): Promise<number> {
  const ended = await ctx.audit.change(async () => {
    const ended = await endEveryAccess(ctx, target.id, keepSessionId);
    if (ended.sessions + ended.appSignIns + ended.pendingSignIns === 0) return ended;
    await ctx.audit.record({
      action: 'session.revoke',
      actor,
      target: { type: 'user', id: target.id },
      tenantId: target.tenantId,
      ip,
      detail: { everywhere: true, ...ended, ...(keepSessionId ? { keptCurrent: true } : {}) },
    });
    return ended;
  });
  return ended.sessions;
}

/** The console sessions of a person of the actor's user scope (404 for anyone else), most recently active first. */
export async function sessionsOfUser(ctx: Ctx, actor: Actor, id: string) {
  return ctx.sessions.list((await manageableUser(ctx, actor, id)).id);
}

/** A person the actor may act on, never the actor (their own sessions end in the personal center). */
async function someoneElseToSignOut(ctx: Ctx, actor: Actor, id: string) {
  const target = await actionableUser(ctx, actor, id);
  if (target.id === actor.id) throw forbidden('Sign out your own sessions in the personal center');
  return target;
}

/** An administrator signs a person they may act on out everywhere; never themselves (that is
 *  POST /cas/logout/everywhere, which can keep the current session). */
export async function signUserOutEverywhere(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<{ revoked: number }> {
  const target = await someoneElseToSignOut(ctx, actor, id);
  return { revoked: await signOutEverywhere(ctx, actor, target, ip) };
}

/** An administrator ends one console session of a person they may act on (a lost laptop): the
 *  person's other sessions and app sign-ins go on. 404 for a session that is not the person's. */
export async function endUserSession(ctx: Ctx, actor: Actor, id: string, sessionId: string, ip: string): Promise<null> {
  const target = await someoneElseToSignOut(ctx, actor, id);
  if (!(await ctx.sessions.list(target.id)).some((row) => row.id === sessionId)) throw notFound('Session');
  await ctx.audit.change(async () => {
    if (!(await ctx.sessions.revoke(sessionId))) throw notFound('Session');
    await ctx.audit.record({
      action: 'session.revoke',
      actor,
      target: { type: 'user', id: target.id },
      tenantId: target.tenantId,
      ip,
      detail: { session: sessionId },
    });
  });
  return null;
}
