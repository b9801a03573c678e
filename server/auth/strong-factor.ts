// Strong second factors: a passkey or an authenticator app (TOTP). Recovery codes are for people
// who have one, and go with the last of them (a set printed for a factor that is gone must not
// pass the second step of one set up later); the login settings' adminStrongFactor makes
// administrators have one.
import type { Ctx } from '../context';
import type { Actor, UserRow } from './actor';
import { isPlatformAdmin, isTenantAdmin } from './actor';
import { deleteRecoveryCodes } from './recovery-codes';
import { totpEnabled } from './totp';
import { hasPasskey } from './passkeys/has-passkey';

export async function hasStrongFactor(ctx: Ctx, userId: string): Promise<boolean> {
  return (await totpEnabled(ctx, userId)) || hasPasskey(ctx.db, userId);
}

/** After one of the actor's strong factors went (`factor`): when none is left, their recovery codes
 *  are deleted (audited). A new set is made, with the password, once a factor is set up again. */
export async function dropCodesWithLastFactor(ctx: Ctx, actor: Actor, factor: 'totp' | 'passkey', ip: string): Promise<void> {
  if (await hasStrongFactor(ctx, actor.id)) return;
  await ctx.audit.change(async () => {
    const deleted = await deleteRecoveryCodes(ctx, actor.id);
    if (!deleted) return;
    await ctx.audit.record({
      action: 'recovery.delete',
      actor,
      target: { type: 'user', id: actor.id },
      tenantId: actor.user.tenantId,
      ip,
      detail: { count: deleted, lastFactor: factor },
    });
  });
}

/** A platform, tenant or app administrator. */
export async function isAdministrator(ctx: Ctx, user: UserRow): Promise<boolean> {
  if (isPlatformAdmin(user) || isTenantAdmin(user)) return true;
  const app = await ctx.db.selectFrom('appAdmins').select('appId').where('userId', '=', user.id).limit(1).executeTakeFirst();
  return app !== undefined;
}
