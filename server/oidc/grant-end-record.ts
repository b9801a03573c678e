// A grant the provider ends (with everything issued under it) is audited: `app.grant_revoke`, about
// the app, naming the person whose access ended and why. The provider ends a grant when a refresh
// token or code that was already used comes back (a stolen or replayed copy: the adapter's consume,
// or the provider's refresh and code grants), when the app revokes one of its tokens at the
// revocation endpoint, and at RP-initiated logout. The actor is nobody: the provider (or the app)
// ended it, not the person. The deletion and its record are one change (adapter.ts,
// revokeByGrantId), so whichever path ends a grant, the audit log shows it, once. Grants the
// console ends itself (a sign-out, a password reset, disabling: revoke.ts) are recorded there.
import type Provider from 'oidc-provider';
import type { Ctx } from '../context';
import type { GrantEnder } from './adapter';
import { ScopedValue } from '../async-scope';

/** The requester's address where the provider serves no request of its own: the refresh grant it
 *  answers without its pipeline (refresh-grant.ts), whose reuse detection ends a grant too. */
export const requesterAddress = new ScopedValue<string>('grant end requester address');

/** Why a grant ended, when the adapter's caller does not say it (its reuse detection does). */
type GrantEndReason = 'refresh_token_reused' | 'code_reused' | 'revoked_by_app' | 'logout' | 'revoked';

/** The reason of a grant's end, by the provider's request that ended it. */
function reasonOf(request: typeof Provider.ctx | undefined): GrantEndReason {
  const route = request?.oidc?.route;
  if (route === 'revocation') return 'revoked_by_app';
  if (route === 'end_session' || route === 'end_session_confirm') return 'logout';
  const grantType = request?.oidc?.params?.grant_type;
  if (route === 'token' && grantType === 'refresh_token') return 'refresh_token_reused';
  if (route === 'token' && grantType === 'authorization_code') return 'code_reused';
  return 'revoked';
}

/** The grant ender of the provider's storage (adapter.ts) for `ctx`; `request` answers the provider's
 *  request being served (oidc-provider's `Provider.ctx`), for the reason and the address. */
export function recordingGrantEnds(ctx: Ctx, request: () => typeof Provider.ctx): GrantEnder {
  return (remove, reason) =>
    ctx.audit.change(async () => {
      const grant = await remove();
      if (!grant) return;
      const served = request();
      const person = await ctx.db.selectFrom('users').select(['id', 'username', 'tenantId']).where('id', '=', grant.accountId).executeTakeFirst();
      await ctx.audit.record({
        action: 'app.grant_revoke',
        actor: null,
        target: { type: 'app', id: grant.clientId },
        tenantId: person?.tenantId ?? null,
        ip: served?.ip ?? requesterAddress.getStore() ?? null,
        detail: { protocol: 'oidc', reason: reason ?? reasonOf(served), person: { id: grant.accountId, username: person?.username ?? null } },
      });
    });
}
