// The passkeys' relying party: its RP ID (the domain passkeys are bound to) and the page origins
// whose ceremonies this server accepts, from configuration (IAM_WEBAUTHN_RP_ID,
// IAM_WEBAUTHN_ORIGINS; server/config.ts checks that every origin lies under the RP ID), else
// the host and origin of the public URL. Never from a request. Without any of these (`npm start`,
// development) on a loopback socket, the public origin is an IP address (http://127.0.0.1:8080),
// which browsers refuse as an RP ID: the relying party is then `localhost` on the same port, the
// address README gives, and passkeys work there out of the box.
import { isIP } from 'node:net';
import type { Ctx } from '../../context';

export interface RelyingParty {
  id: string;
  origins: string[];
}

export function relyingParty(ctx: Ctx): RelyingParty {
  const own = ctx.site.origin();
  return localhostParty(ctx, own) ?? { id: ctx.config.webauthn.rpId ?? new URL(own).hostname, origins: ctx.config.webauthn.origins ?? [own] };
}

/** `localhost` on the socket's port, when nothing is configured and the socket is a loopback IP. */
function localhostParty(ctx: Ctx, own: string): RelyingParty | undefined {
  const { webauthn, publicUrl } = ctx.config;
  if (publicUrl !== undefined || webauthn.rpId !== undefined || webauthn.origins !== undefined) return undefined;
  const url = new URL(own);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host !== '::1' && !host.startsWith('127.')) return undefined;
  url.hostname = 'localhost';
  return { id: 'localhost', origins: [url.origin] };
}

/** The RP ID for a page of `origin` (a request's Origin header; none: a same-origin request, our
 *  own page), or null when that page may not use passkeys here, so that the sign-in form hides them.
 *  Browsers refuse an IP address as an RP ID (a server reached as http://127.0.0.1:8080 without
 *  IAM_PUBLIC_URL): no passkeys there either. */
export function rpIdFor(ctx: Ctx, origin: string | undefined): string | null {
  const party = relyingParty(ctx);
  if (isIP(party.id.replace(/^\[|\]$/g, ''))) return null;
  // A same-origin page sends no Origin: the server's own page, named by its listed origin.
  return party.origins.includes(origin ?? ownPage(ctx, party)) ? party.id : null;
}

/** The origin of the server's own page: the public one, or on the loopback fallback its localhost name. */
const ownPage = (ctx: Ctx, party: RelyingParty): string => (localhostParty(ctx, ctx.site.origin()) ? party.origins[0]! : ctx.site.origin());
