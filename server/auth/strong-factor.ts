// Strong second factors: a passkey or an authenticator app (TOTP). Recovery codes are for people
// who have one; the login settings' adminStrongFactor makes administrators have one.
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import { isPlatformAdmin, isTenantAdmin } from './actor';
import { totpEnabled } from './totp';
import { hasPasskey } from './passkeys/has-passkey';

export async function hasStrongFactor(ctx: Ctx, userId: string): Promise<boolean> {
  return (await totpEnabled(ctx, userId)) || hasPasskey(ctx.db, userId);
}

/** A platform, tenant or app administrator. */
export async function isAdministrator(ctx: Ctx, user: UserRow): Promise<boolean> {
  if (isPlatformAdmin(user) || isTenantAdmin(user)) return true;
  const app = await ctx.db.selectFrom('appAdmins').select('appId').where('userId', '=', user.id).limit(1).executeTakeFirst();
  return app !== undefined;
}
