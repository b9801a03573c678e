// Whether this page can make passkeys, before the browser is asked: a passkey belongs to a domain
// (the server's RP ID), so a page opened at an IP address, or on an origin the server does not
// accept passkeys from (IAM_WEBAUTHN_ORIGINS), only gets the browser's raw "invalid domain" error.
// The personal center says why instead, and what to configure.

/** Why passkeys cannot be added on the page. */
export type PasskeysNotHere = { reason: 'ipAddress'; host: string } | { reason: 'origin'; origin: string };

const isIpAddress = (hostname: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');

/**
 * `rpId`: the server's answer for this page (`passkeyRpId` of the public login settings: null when
 * it accepts no passkeys from this origin); undefined while it is read or when it could not be
 * read (then the browser is asked, and says what it says).
 */
export function passkeysNotHere(rpId: string | null | undefined, page: { hostname: string; host: string; origin: string }): PasskeysNotHere | undefined {
  if (rpId === undefined) return undefined;
  if (isIpAddress(page.hostname)) return { reason: 'ipAddress', host: page.host };
  if (rpId === null || (page.hostname !== rpId && !page.hostname.endsWith(`.${rpId}`))) return { reason: 'origin', origin: page.origin };
  return undefined;
}
