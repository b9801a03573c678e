// An app as an OpenID Connect client, behind the oidc-client calls of server/routes/sso.ts: its
// type (confidential or public), settings and secret (stored by server/oidc/clients.ts), for those
// who may manage the app; the secret is answered only when it is made.
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import type { oidcClientBody } from '../../src/core/schemas/sso';
import { OidcProvider } from '../oidc/provider';
import { callbackUrls, clientStatus, rotateClientSecret, setClientType, storedClientSecret, updateClient } from '../oidc/clients';
import { oidcDb } from '../oidc/tables';
import { endClientGrants } from '../oidc/revoke';
import { canManageApp } from '../auth/scope';
import { assertMayTrustApps } from '../auth/grants';
import { ApiError, notFound, type FieldError } from '../http/errors';
import { ClientType } from '../../src/core/schemas/sso';
import { assertOutboundUri } from '../http/outbound-field';

const issuerOf = async (ctx: Ctx) => (await OidcProvider.of(ctx).get()).issuer;

/** The app, when the actor may manage it (404 otherwise); its callback URLs are the client's redirect URIs. */
async function manageableApp(ctx: Ctx, actor: Actor, appId: string) {
  const row = await ctx.db.selectFrom('apps').select(['id', 'callbackUrl']).where('id', '=', appId).executeTakeFirst();
  if (!row || !canManageApp(actor, appId)) throw notFound('App');
  return row;
}

/** The client as the API answers it (never its secret). */
const clientView = async (ctx: Ctx, appId: string, callbackUrl: string | null) => ({
  clientId: appId,
  issuer: await issuerOf(ctx),
  redirectUris: callbackUrls(callbackUrl),
  ...(await clientStatus(oidcDb(ctx.db), appId)),
});

export async function clientOf(ctx: Ctx, actor: Actor, appId: string) {
  const { callbackUrl } = await manageableApp(ctx, actor, appId);
  return clientView(ctx, appId, callbackUrl);
}

/** A public client has no secret to prove who it is: what needs one is refused, by field. */
function refuseSecretOnlySettings(body: v.InferOutput<typeof oidcClientBody>): void {
  const fields: FieldError[] = [];
  if (body.clientCredentials) fields.push({ field: 'clientCredentials', rule: 'rule.publicClient' });
  if (body.trusted) fields.push({ field: 'trusted', rule: 'rule.publicClient' });
  if (fields.length) {
    throw new ApiError(400, 'A public client (single-page or native app) has no secret: it cannot use client_credentials nor be trusted', { fields });
  }
}

/** Changes the client's settings; marking it trusted is for the platform administrator only. */
export async function changeClient(ctx: Ctx, actor: Actor, appId: string, body: v.InferOutput<typeof oidcClientBody>, ip: string) {
  const { callbackUrl } = await manageableApp(ctx, actor, appId);
  if (body.trusted !== undefined) assertMayTrustApps(actor);
  const db = oidcDb(ctx.db);
  const { clientType: was } = await clientStatus(db, appId);
  if ((body.clientType ?? was) === ClientType.Public) refuseSecretOnlySettings(body);
  if (body.backchannelLogoutUri) await assertOutboundUri(ctx, 'backchannelLogoutUri', body.backchannelLogoutUri);
  const { clientType, ...settings } = body;
  const changes = {
    ...settings,
    ...(body.postLogoutRedirectUris ? { postLogoutRedirectUris: [...new Set(body.postLogoutRedirectUris)] } : {}),
    ...(body.backchannelLogoutUri !== undefined ? { backchannelLogoutUri: body.backchannelLogoutUri || null } : {}),
  };
  // The type first: switching to public makes the client (it needs no secret), revokes the secret
  // and ends the app's grants.
  await ctx.audit.change(async () => {
    let switched = {};
    if (clientType && clientType !== was) {
      await setClientType(db, appId, clientType);
      const revoked = { clientSecret: 'revoked', clientCredentials: false, trusted: false };
      // Its grants end too: the refresh tokens the secret guarded would refresh with none.
      switched = clientType === ClientType.Public ? { clientType, ...revoked, grantsEnded: await endClientGrants(ctx.db, appId) } : { clientType };
    }
    if (!(await updateClient(db, appId, changes))) throw new ApiError(409, 'Generate a client secret first');
    await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: appId }, ip, detail: { ...changes, ...switched } });
  });
  return clientView(ctx, appId, callbackUrl);
}

/** Makes (or replaces) the client's secret: this answer is the only place it is shown. */
export async function rotateSecret(ctx: Ctx, actor: Actor, appId: string, ip: string) {
  await manageableApp(ctx, actor, appId);
  const db = oidcDb(ctx.db);
  const replacing = await storedClientSecret(db, appId);
  const clientSecret = await ctx.audit.change(async () => {
    const made = await rotateClientSecret(db, appId, ctx.now(), replacing);
    if (made === 'public') throw new ApiError(409, 'A public client has no secret: switch the app to confidential first');
    if (made === 'raced')
      throw new ApiError(409, 'Another request generated a new client secret at the same moment: the secret it answered is the one in force');
    await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: appId }, ip, detail: { clientSecret: 'rotated' } });
    return made.secret;
  });
  return { clientId: appId, clientSecret, issuer: await issuerOf(ctx) };
}
