// Signing a person out everywhere: every console session (but, when asked, the caller's current
// one) and every app grant end, audited. An administrator does it to a person of their scope
// (DELETE /user/:id/sessions), a person to themselves (POST /cas/logout/everywhere).
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { endEveryAccess } from '../oidc/revoke';

export async function signOutEverywhere(
  ctx: Ctx,
  actor: Actor,
  target: { id: string; tenantId: string | null },
  ip: string,
  keepSessionId?: string,
): Promise<number> {
  const sessions = await endEveryAccess(ctx, target.id, keepSessionId);
  await ctx.audit.record({
    action: 'session.revoke',
    actor,
    target: { type: 'user', id: target.id },
    tenantId: target.tenantId,
    ip,
    detail: { everywhere: true, sessions, ...(keepSessionId ? { keptCurrent: true } : {}) },
  });
  return sessions;
}
