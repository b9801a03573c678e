// The passkeys' relying party: its RP ID (the domain passkeys are bound to) and the page origins
// whose ceremonies this server accepts, from configuration (IAM_WEBAUTHN_RP_ID,
// IAM_WEBAUTHN_ORIGINS; server/config.ts checks that every origin lies under the RP ID), else
// the host and origin of the public URL. Never from a request.
import { isIP } from 'node:net';
import type { Ctx } from '../../context';

export interface RelyingParty {
  id: string;
  origins: string[];
}

export function relyingParty(ctx: Ctx): RelyingParty {
  const own = ctx.site.origin();
  return { id: ctx.config.webauthn.rpId ?? new URL(own).hostname, origins: ctx.config.webauthn.origins ?? [own] };
}

/** The RP ID for a page of `origin` (a request's Origin header; none: a same-origin request, our
 *  own page), or null when that page may not use passkeys here, so that the sign-in form hides them.
 *  Browsers refuse an IP address as an RP ID (a server reached as http://127.0.0.1:8080 without
 *  IAM_PUBLIC_URL): no passkeys there either. */
export function rpIdFor(ctx: Ctx, origin: string | undefined): string | null {
  const party = relyingParty(ctx);
  if (isIP(party.id.replace(/^\[|\]$/g, ''))) return null;
  return party.origins.includes(origin ?? ctx.site.origin()) ? party.id : null;
}
