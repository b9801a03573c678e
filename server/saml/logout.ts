// Single Logout. An app's LogoutRequest (HTTP-Redirect or HTTP-POST) naming a session this server
// gave it (NameID and SessionIndex) ends that console session and, as the OpenID Connect logout
// does, the person's app access (server/oidc/revoke.ts, which also ends their other SAML sessions
// and tells those apps: sessions.ts); the app gets a signed LogoutResponse in the binding of its
// Single Logout service (a redirect with a signed query, else a posting page). A LogoutRequest must be
// signed by the app (SAML profiles §4.4.4.1: the requester authenticates itself), name this server's
// Single Logout service as its Destination (required of a signed message: bindings §3.4.5.2,
// §3.5.5.2), be issued within the allowed clock skew and not be past its NotOnOrAfter; its ID is
// accepted once (remembered longer than any IssueInstant accepted). Otherwise it is answered
// RequestDenied and ends nothing.
// One exception to the signature: an app that registered no signing certificate cannot sign
// (OneLogin's python3-saml, by default, sends its LogoutRequest unsigned). Its unsigned request
// authenticates itself by the browser that carries it (HTTP-Redirect or HTTP-POST, with the
// console's cookie) and by what it names: it ends only sessions that browser's console session was
// given, named by their NameID and SessionIndex (a random value only that app and that browser saw),
// which is what that browser could end by signing out anyway. Anything else unsigned is denied.
// An app's LogoutResponse answers a LogoutRequest a browser sign-out carried to it
// (front-channel.ts): signed by the app, sent to this server just now, it must answer the very
// request the chain named by its RelayState sent that app; only then does the chain go on. Anything
// else is refused (400) and moves nothing.
import type { Ctx } from '../context';
import { childrenOf, NS, SamlError, textOf } from './xml';
import { buildLogoutResponse, issuedNow, sentTo, type SamlStatus } from './messages';
import { signElement } from './signatures';
import { signedRedirectUrl } from './redirect-binding';
import { idpEndpoints } from './endpoints';
import { publishedKeys } from './keys';
import { firstUse, readFromSp, type Incoming } from './sign-in';
import { revokeAppGrants } from '../oidc/revoke';
import { SIGNED_OUT_PAGE, stepAnswered } from './front-channel';

export type LogoutOutcome = { kind: 'post'; url: string; message: string; relayState: string | null } | { kind: 'redirect'; location: string };

/** `browserSession`: the console session of the browser that carried the request, if any. */
export async function receiveLogout(ctx: Ctx, incoming: Incoming, ip: string, browserSession: string | undefined): Promise<LogoutOutcome> {
  if (incoming.kind === 'response') return { kind: 'redirect', location: await receiveLogoutResponse(ctx, incoming) };
  const { sp, header, refused, signed } = await readFromSp(ctx, incoming, 'LogoutRequest');
  const nameId = textOf(childrenOf(header.root, NS.assertion, 'NameID')[0]);
  const indexes = childrenOf(header.root, NS.protocol, 'SessionIndex').map((element) => textOf(element) ?? '');
  const now = ctx.now();
  const denied: SamlStatus = { code: 'Requester', second: 'RequestDenied', message: refused };
  let status: SamlStatus = { code: 'Success' };
  // Unsigned: only from an app that cannot sign, for this browser's own sessions (checked below).
  const fromBrowser = !signed && !sp.signingCert;
  if (refused || (!signed && !fromBrowser) || !sentTo(header, signed, idpEndpoints(ctx).sloUrl)) status = denied;
  else if (!issuedNow(header, now) || !beforeNotOnOrAfter(header.root, now)) status = denied;
  else if (!(await firstUse(ctx, sp.entityId, header.id))) status = denied;
  else if (nameId && indexes.length) {
    const sessions = await ctx.db
      .selectFrom('samlSessions')
      .select(['userId', 'consoleSessionId'])
      .where('appId', '=', sp.appId)
      .where('nameId', '=', nameId)
      .where('sessionIndex', 'in', indexes)
      .execute();
    const browserOwns = sessions.length > 0 && sessions.every((session) => session.consoleSessionId === browserSession);
    if (fromBrowser && !browserOwns) status = { ...denied, message: 'An unsigned LogoutRequest ends only the sessions of the browser that carries it' };
    else
      for (const session of sessions) {
        const user = await ctx.db.selectFrom('users').select(['id', 'username', 'tenantId']).where('id', '=', session.userId).executeTakeFirst();
        await ctx.audit.change(async () => {
          // The app that asked is not told again (its session is the one ending).
          // Only the sessions found above: the NameID as well as the indexes (another person's
          // session index beside the request's own names nothing of theirs).
          await ctx.db.deleteFrom('samlSessions').where('appId', '=', sp.appId).where('nameId', '=', nameId).where('sessionIndex', 'in', indexes).execute();
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
  } else status = { code: 'Requester' };
  if (!sp.sloUrl) return { kind: 'redirect', location: SIGNED_OUT_PAGE };
  const [key] = await publishedKeys(ctx.db, ctx.now());
  const { xml, id } = buildLogoutResponse(idpEndpoints(ctx).entityId, sp.sloUrl, header.id, ctx.now(), status);
  // In the binding of the app's Single Logout service: an HTTP-Redirect one (mod_auth_mellon's)
  // reads the LogoutResponse from its query only.
  if (sp.sloBinding === 'HTTP-Redirect') return { kind: 'redirect', location: signedRedirectUrl(sp.sloUrl, 'SAMLResponse', xml, incoming.relayState, key!) };
  return { kind: 'post', url: sp.sloUrl, message: Buffer.from(signElement(xml, id, key!)).toString('base64'), relayState: incoming.relayState };
}

/** A LogoutRequest's NotOnOrAfter, when it carries one, is still ahead of `now`. */
function beforeNotOnOrAfter(root: Element, now: number): boolean {
  if (!root.hasAttribute('NotOnOrAfter')) return true;
  const until = Date.parse(root.getAttribute('NotOnOrAfter') ?? '');
  return !Number.isNaN(until) && now < until;
}

/** The app's LogoutResponse to a browser sign-out's step: answers where the browser goes next. */
async function receiveLogoutResponse(ctx: Ctx, incoming: Incoming): Promise<string> {
  const { sp, header, refused, signed } = await readFromSp(ctx, incoming, 'LogoutResponse');
  if (refused) throw new SamlError(refused, 'RequestDenied');
  if (!signed) throw new SamlError('The LogoutResponse must be signed by the app', 'RequestDenied');
  if (!sentTo(header, signed, idpEndpoints(ctx).sloUrl))
    throw new SamlError("The LogoutResponse must name this identity provider's Single Logout service as its Destination");
  if (!issuedNow(header, ctx.now())) throw new SamlError("The LogoutResponse's IssueInstant is out of the allowed range");
  if (!incoming.relayState) return SIGNED_OUT_PAGE;
  return stepAnswered(ctx, incoming.relayState, sp.appId, header.root.getAttribute('InResponseTo') ?? '');
}
