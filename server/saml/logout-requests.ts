// The LogoutRequests this identity provider sends an app to end a session it gave it (its NameID
// and SessionIndex), signed with the active key, in the binding the app registered: inside a SOAP
// envelope (back-channel.ts), an HTTP-POST form, or an HTTP-Redirect query signed over its raw
// parameters (front-channel.ts). Every request sent is recorded in the audit log ('app.sign_out').
import type { Ctx } from '../context';
import { buildLogoutRequest } from './messages';
import { signElement } from './signatures';
import { signedRedirectUrl } from './redirect-binding';
import { idpEndpoints } from './endpoints';
import { publishedKeys } from './keys';
import { NAME_ID_URNS } from './sp-metadata';
import type { NameIdFormat } from '../../src/core/schemas/saml';

/** A session of an app to end, and where the app hears of it. */
export interface LogoutTarget {
  appId: string;
  userId: string;
  nameId: string;
  /** The format the session's NameID was given in (null: the app's setting). */
  nameIdFormat: string | null;
  sessionIndex: string;
  sloUrl: string;
}

/** The LogoutRequest for the app's session (unsigned XML) and its ID (`requestId`, else a new one). */
async function unsignedRequest(ctx: Ctx, target: LogoutTarget, requestId?: string) {
  const sp = await ctx.db.selectFrom('samlServiceProviders').select('nameIdFormat').where('appId', '=', target.appId).executeTakeFirst();
  const format = NAME_ID_URNS[(target.nameIdFormat ?? sp?.nameIdFormat ?? 'unspecified') as NameIdFormat];
  return buildLogoutRequest(idpEndpoints(ctx).entityId, target.sloUrl, target.nameId, format, target.sessionIndex, ctx.now(), requestId);
}

/** The signed LogoutRequest (XML, an enveloped signature: SOAP and HTTP-POST) and its ID. */
export async function logoutRequestFor(ctx: Ctx, target: LogoutTarget, requestId?: string): Promise<{ xml: string; id: string }> {
  const { xml, id } = await unsignedRequest(ctx, target, requestId);
  const [key] = await publishedKeys(ctx.db, ctx.now());
  return { xml: signElement(xml, id, key!), id };
}

/** The HTTP-Redirect binding's URL for the request (redirect-binding.ts), RelayState `relayState`. */
export async function redirectUrlFor(ctx: Ctx, target: LogoutTarget, relayState: string, requestId: string): Promise<string> {
  const { xml } = await unsignedRequest(ctx, target, requestId);
  const [key] = await publishedKeys(ctx.db, ctx.now());
  return signedRedirectUrl(target.sloUrl, 'SAMLRequest', xml, relayState, key!);
}

/** The audit record of a LogoutRequest sent (or, over SOAP, given up after the last attempt). */
export async function recordLogoutSent(ctx: Ctx, target: LogoutTarget, binding: string, delivered: boolean): Promise<void> {
  const person = await ctx.db.selectFrom('users').select(['id', 'username', 'tenantId']).where('id', '=', target.userId).executeTakeFirst();
  await ctx.audit.record({
    action: 'app.sign_out',
    actor: person ? { id: person.id, username: person.username } : null,
    target: { type: 'app', id: target.appId },
    tenantId: person?.tenantId ?? null,
    success: delivered,
    detail: { protocol: 'saml', binding },
  });
}
