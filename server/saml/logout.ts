// Single Logout. An app's LogoutRequest (HTTP-Redirect or HTTP-POST, signed when the app said it
// signs) naming a session this server gave it (NameID and SessionIndex) ends that console session
// and, as the OpenID Connect logout does, the person's app access (server/oidc/revoke.ts, which
// also ends their SAML sessions: endSamlSessions below); the app gets a signed LogoutResponse.
// Ending a person's sessions anywhere else (signing out, disabling them, a password reset) ends
// their SAML sessions through the same revoke.ts (server/saml/sessions.ts).
import type { Ctx } from '../context';
import { childrenOf, NS, textOf } from './xml';
import { buildLogoutResponse } from './messages';
import { signElement } from './signatures';
import { idpEndpoints } from './endpoints';
import { publishedKeys } from './keys';
import { firstUse, readFromSp, type Incoming } from './sign-in';
import { revokeAppGrants } from '../oidc/revoke';

export type LogoutOutcome = { kind: 'post'; url: string; message: string; relayState: string | null } | { kind: 'done' };

export async function receiveLogout(ctx: Ctx, incoming: Incoming, ip: string): Promise<LogoutOutcome> {
  if (incoming.kind === 'response') {
    // The answer to a LogoutRequest we sent: checked, nothing left to do.
    await readFromSp(ctx, incoming, 'LogoutResponse');
    return { kind: 'done' };
  }
  const { sp, header, refused } = await readFromSp(ctx, incoming, 'LogoutRequest');
  const nameId = textOf(childrenOf(header.root, NS.assertion, 'NameID')[0]);
  const indexes = childrenOf(header.root, NS.protocol, 'SessionIndex').map((element) => textOf(element) ?? '');
  let status = 'Success';
  if (refused || !(await firstUse(ctx, sp.entityId, header.id))) status = 'RequestDenied';
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
  if (!sp.sloUrl) return { kind: 'done' };
  const [key] = await publishedKeys(ctx.db, ctx.now());
  const { xml, id } = buildLogoutResponse(idpEndpoints(ctx).entityId, sp.sloUrl, header.id, ctx.now(), status);
  return { kind: 'post', url: sp.sloUrl, message: Buffer.from(signElement(xml, id, key!)).toString('base64'), relayState: incoming.relayState };
}
