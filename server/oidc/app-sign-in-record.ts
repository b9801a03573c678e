// A person's sign-in to an app through the OpenID Connect provider is audited as SAML's is
// (server/saml/sign-in.ts): `app.sign_in` when the provider issues the app its authorization code,
// after the consent page or straight away (a trusted app, a consent given before). The code and the
// record are one change: an app never holds a code whose sign-in the audit log does not show.
import type Provider from 'oidc-provider';
import type { Ctx } from '../context';
import type { CodeWriter } from './adapter';

/** The code writer of the provider's storage (adapter.ts) for `ctx`; `request` answers the
 *  provider's request being served (oidc-provider's `Provider.ctx`), for the address it came from. */
export function recordingAppSignIns(ctx: Ctx, request: () => typeof Provider.ctx): CodeWriter {
  return async (code, write) => {
    const { clientId } = JSON.parse(code.payload) as { clientId: string };
    const person = await ctx.db.selectFrom('users').select(['id', 'username', 'tenantId']).where('id', '=', code.accountId!).executeTakeFirst();
    await ctx.audit.change(async () => {
      await write();
      await ctx.audit.record({
        action: 'app.sign_in',
        actor: person ?? null,
        target: { type: 'app', id: clientId },
        tenantId: person?.tenantId ?? null,
        ip: request()?.ip ?? null,
        detail: { protocol: 'oidc' },
      });
    });
  };
}
