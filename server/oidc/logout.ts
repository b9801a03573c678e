// RP-initiated logout: the provider asks the person to confirm (this page, in their language,
// without inline styles or scripts so the strict Content-Security-Policy holds), and a confirmed
// sign-out also ends the console session in that browser, as the console's own sign-out does.
// Forms the provider posts by itself, unconfirmed (no signed-in provider session, or the switch to
// another person after a sign-in), leave the console session alone: no other site can sign a person
// out of the console, and the person who just signed in stays signed in.
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Ctx } from '../context';
import fastifyCookie from '@fastify/cookie';
import { sessionCookieName } from '../auth/gate';
import { answerLanguage, localizeMessage } from '../http/language';
import { revokeAppGrants } from './revoke';

/** Marks the logout as asked of the person (kept in the provider session's logout state). */
const ASKED = 'askedPerson';

export async function logoutSource(koa: KoaContextWithOIDC, form: string): Promise<void> {
  koa.oidc.session!.state = { ...koa.oidc.session!.state, [ASKED]: true };
  const language = answerLanguage(koa.get('accept-language'));
  const text = (message: string) => localizeMessage(message, language);
  koa.body = `<!DOCTYPE html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text('Sign out')}</title></head>
<body>
  <h1>${text('Sign out of the console and its apps?')}</h1>
  ${form}
  <button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${text('Yes, sign me out')}</button>
  <button type="submit" form="op.logoutForm">${text('No, stay signed in')}</button>
</body>
</html>`;
}

/** After a confirmed end_session: the console session of this browser ends too (and with it the person's app grants). */
export function endConsoleSessionOnLogout(ctx: Ctx) {
  return async (koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    const { oidc } = koa;
    const confirmed = oidc?.route === 'end_session_confirm' && koa.status === 303 && Boolean(oidc.params?.logout) && oidc.session?.state?.[ASKED] === true;
    const cookie = sessionCookieName(ctx.config);
    const secret = confirmed ? koa.cookies.get(cookie, { signed: false }) : undefined;
    if (!secret) return;
    const live = await ctx.sessions.resolve(secret, 'cookie');
    await ctx.audit.change(async () => {
      await ctx.sessions.revokeSecret(secret);
      // Cleared as it was set (server/auth/gate.ts): Secure for a __Host- cookie, whatever the
      // proxy told Koa (its cookie jar refuses to write a Secure cookie on a request it thinks is http).
      koa.append(
        'Set-Cookie',
        fastifyCookie.serialize(cookie, '', {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: koa.secure || cookie.startsWith('__Host-'),
          expires: new Date(0),
        }),
      );
      if (!live) return;
      await revokeAppGrants(ctx.db, live.user.id);
      await ctx.audit.record({
        action: 'logout',
        actor: live.user,
        target: { type: 'session', id: live.sessionId },
        tenantId: live.user.tenantId,
        ip: koa.ip,
        detail: { via: 'oidc' },
      });
    });
  };
}
