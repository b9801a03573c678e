// The NameID an assertion carries (SAML core §3.4.1.1, §8.3). The app's setting, its
// administrator's choice, is the default; an AuthnRequest's NameIDPolicy may ask for another format,
// and a format this identity provider can give is given, as Keycloak (without "Force name ID
// format") and authentik do:
// - persistent: the opaque id this app always gets for the person (the same as the setting gives);
// - transient: a new opaque value for each assertion, recorded with the SAML session (sessions.ts)
//   so that Single Logout still finds it;
// - emailAddress: the person's e-mail address, when they have one;
// - unspecified, or no Format: the app's setting.
// Any other format (an unknown URN, or one this server never gives: X509SubjectName, Kerberos,
// encrypted, …) is answered InvalidNameIDPolicy with a StatusMessage naming it, as is emailAddress
// for a person without an address (docs/saml.md).
import { createHash, randomBytes } from 'node:crypto';
import { childOf, NS } from './xml';
import { NAME_ID_URNS } from './sp-metadata';
import type { NameIdFormat } from '../../src/core/schemas/saml';

/** The URNs that leave the choice to the identity provider: SAML 1.1's (the standard one) and the
 *  SAML 2.0 spelling some SPs send. */
const UNSPECIFIED = new Set([NAME_ID_URNS.unspecified, 'urn:oasis:names:tc:SAML:2.0:nameid-format:unspecified']);

/** What a request asks for: a format (`null`: the app's setting), or why it cannot be given. */
export type RequestedFormat = { format: NameIdFormat | null; refused?: undefined } | { format?: undefined; refused: string };

export function requestedFormat(request: Element): RequestedFormat {
  const urn = childOf(request, NS.protocol, 'NameIDPolicy')?.getAttribute('Format')?.trim();
  if (!urn || UNSPECIFIED.has(urn)) return { format: null };
  const format = (Object.keys(NAME_ID_URNS) as NameIdFormat[]).find((key) => NAME_ID_URNS[key] === urn);
  if (format) return { format };
  return { refused: `The NameID format ${urn.slice(0, 200)} is not one this identity provider gives (${Object.values(NAME_ID_URNS).join(', ')})` };
}

/** The person's NameID in `format` for the app, or why there is none. */
export function nameIdIn(
  format: NameIdFormat,
  appId: string,
  user: { id: string; username: string; email: string | null },
): { nameId: string } | { refused: string } {
  if (format === 'email') return user.email ? { nameId: user.email } : { refused: 'The person has no e-mail address to give as an emailAddress NameID' };
  if (format === 'persistent') return { nameId: createHash('sha256').update(`${appId}\n${user.id}`).digest('base64url') };
  if (format === 'transient') return { nameId: `_${randomBytes(20).toString('hex')}` };
  return { nameId: user.username };
}
