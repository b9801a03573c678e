// Single Logout. An app's LogoutRequest (HTTP-Redirect or HTTP-POST) naming a session this server
// gave it (NameID and SessionIndex) ends that console session and, as the OpenID Connect logout
// does, the person's app access (server/oidc/revoke.ts, which also ends their other SAML sessions
// and tells those apps: sessions.ts); the app gets a signed LogoutResponse. A LogoutRequest must be
// signed by the app (SAML profiles §4.4.4.1: the requester authenticates itself): an unsigned one,
// or one from an app without a signing certificate, is answered RequestDenied and ends nothing.
// An app's LogoutResponse answers a LogoutRequest a browser sign-out carried to it
// (front-channel.ts): its RelayState names the sign-out's chain, which goes on to the next app.
import type { Ctx } from '../context';
import { childrenOf, NS, textOf } from './xml';
import { buildLogoutResponse } from './messages';
import { signElement } from './signatures';
import { idpEndpoints } from './endpoints';
import { publishedKeys } from './keys';
import { firstUse, readFromSp, type Incoming } from './sign-in';
import { revokeAppGrants } from '../oidc/revoke';
import { chainUrl, SIGNED_OUT_PAGE } from './front-channel';

export type LogoutOutcome = { kind: 'post'; url: string; message: string; relayState: string | null } | { kind: 'redirect'; location: string };

export async function receiveLogout(ctx: Ctx, incoming: Incoming, ip: string): Promise<LogoutOutcome> {
  if (incoming.kind === 'response') {
    // The answer to a LogoutRequest a browser sign-out carried: on to the chain's next app.
    await readFromSp(ctx, incoming, 'LogoutResponse');
    const next = incoming.relayState ? await chainUrl(ctx, incoming.relayState) : undefined;
    return { kind: 'redirect', location: next ?? SIGNED_OUT_PAGE };
  }
  const { sp, header, refused, signed } = await readFromSp(ctx, incoming, 'LogoutRequest');
  const nameId = textOf(childrenOf(header.root, NS.assertion, 'NameID')[0]);
  const indexes = childrenOf(header.root, NS.protocol, 'SessionIndex').map((element) => textOf(element) ?? '');
  let status = 'Success';
  if (refused || !signed || !(await firstUse(ctx, sp.entityId, header.id))) status = 'RequestDenied';
  else if (header.destination && header.destination !== idpEndpoints(ctx).sloUrl) status = 'RequestDenied';
  else if (nameId && indexes.length) {
    const sessions = await ctx.db
      .selectFrom('samlSessions')
      .select(['userId', 'consoleSessionId'])
      .where('appId', '=', sp.appId)
      .where('nameId', '=', nameId)
      .where('sessionIndex', 'in', indexes)
      .execute();
    for (const session of sessions) {
      const user = await ctx.db.selectFrom('users').select(['id', 'username', 'tenantId']).where('id', '=', session.userId).executeTakeFirst();
      await ctx.audit.change(async () => {
        // The app that asked is not told again (its session is the one ending).
        await ctx.db.deleteFrom('samlSessions').where('appId', '=', sp.appId).where('sessionIndex', 'in', indexes).execute();
        if (session.consoleSessionId) await ctx.sessions.revoke(session.consoleSessionId);
        await revokeAppGrants(ctx.db, session.userId);
        if (user)
          await ctx.audit.record({
            action: 'logout',
            actor: user,
            target: { type: 'session', id: session.consoleSessionId },
            tenantId: user.tenantId,
            ip,
            detail: { via: 'saml', app: sp.appId },
          });
      });
    }
  } else status = 'Requester';
  if (!sp.sloUrl) return { kind: 'redirect', location: SIGNED_OUT_PAGE };
  const [key] = await publishedKeys(ctx.db, ctx.now());
  const { xml, id } = buildLogoutResponse(idpEndpoints(ctx).entityId, sp.sloUrl, header.id, ctx.now(), status);
  return { kind: 'post', url: sp.sloUrl, message: Buffer.from(signElement(xml, id, key!)).toString('base64'), relayState: incoming.relayState };
}
