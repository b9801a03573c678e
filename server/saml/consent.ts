// A person's consent to a SAML app, remembered as their OpenID Connect consent is: they are not
// asked again while what the app is told about them, and which service provider is told it, stay
// the same (the fingerprint: the SP's entity ID, the NameID format and the names of the attributes
// it receives), until the consent is withdrawn: a denial, the app's SAML settings removed,
// or the end of their app access (signing out, disabling them, a password reset, an administrator
// ending their sessions: server/saml/sessions.ts), when their OpenID Connect grants end too.
import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';

/** What the app is told and who receives it, as one value: a change asks the person again. */
export const consentFingerprint = (entityId: string, nameIdFormat: string, attributes: Record<string, string[]>) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        entityId,
        nameIdFormat,
        Object.keys(attributes)
          .filter((name) => attributes[name]!.length)
          .sort(),
      ]),
    )
    .digest('base64url');

export async function consentRemembered(ctx: Ctx, userId: string, appId: string, fingerprint: string): Promise<boolean> {
  const row = await ctx.db.selectFrom('samlConsents').select('fingerprint').where('userId', '=', userId).where('appId', '=', appId).executeTakeFirst();
  return row?.fingerprint === fingerprint;
}

/** Who answers for which app, from where: what a consent's audit record names. */
export interface ConsentAnswer {
  actor: Actor;
  app: string;
  ip: string;
}

/** Remembers the person's consent, with an `app.consent` record when it is new or its fingerprint
 *  changed (part of the change running now). */
export async function rememberConsent(ctx: Ctx, { actor, app, ip }: ConsentAnswer, fingerprint: string): Promise<void> {
  if (await consentRemembered(ctx, actor.id, app, fingerprint)) return;
  await ctx.db
    .insertInto('samlConsents')
    .values({ userId: actor.id, appId: app, fingerprint, createdAt: ctx.now() })
    .onConflict((conflict) => conflict.columns(['userId', 'appId']).doUpdateSet({ fingerprint, createdAt: ctx.now() }))
    .execute();
  await ctx.audit.record({ action: 'app.consent', actor, target: { type: 'app', id: app }, tenantId: actor.user.tenantId, ip, detail: { protocol: 'saml' } });
}

/** Withdraws the person's consent (a denial), with an `app.consent_withdraw` record when there was one. */
export async function forgetConsent(ctx: Ctx, { actor, app, ip }: ConsentAnswer): Promise<void> {
  const deleted = await ctx.db.deleteFrom('samlConsents').where('userId', '=', actor.id).where('appId', '=', app).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) return;
  await ctx.audit.record({
    action: 'app.consent_withdraw',
    actor,
    target: { type: 'app', id: app },
    tenantId: actor.user.tenantId,
    ip,
    detail: { protocol: 'saml' },
  });
}
