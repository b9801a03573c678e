// The SAML messages this identity provider reads (AuthnRequest, LogoutRequest) and writes
// (Response with its Assertion, LogoutResponse, LogoutRequest), as bindings carry them.
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { childOf, NS, parseXml, SamlError, textOf, XmlWriter, MAX_XML_BYTES } from './xml';

/** The largest SAMLRequest parameter read (base64, before inflating). */
const MAX_ENCODED_BYTES = 96 * 1024;
/** How far a message's IssueInstant may be from our clock. */
export const CLOCK_SKEW_MS = 3 * 60_000;
/** How long an assertion may be presented (NotOnOrAfter of its conditions). */
const ASSERTION_TTL_MS = 5 * 60_000;

const newId = () => `_${randomBytes(20).toString('hex')}`;
const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The XML of a SAMLRequest/SAMLResponse parameter: deflated for HTTP-Redirect, plain for HTTP-POST
 *  (some SPs, node-saml's default among them, deflate in HTTP-POST too: read either). */
export function decodeMessage(encoded: string, binding: 'redirect' | 'post'): string {
  if (encoded.length > MAX_ENCODED_BYTES) throw new SamlError('The message is too large');
  const bytes = Buffer.from(encoded, 'base64');
  if (binding === 'post' && /^\s*(\uFEFF)?</.test(bytes.subarray(0, 64).toString('utf8'))) return bytes.toString('utf8');
  try {
    return inflateRawSync(bytes, { maxOutputLength: MAX_XML_BYTES }).toString('utf8');
  } catch {
    throw new SamlError('The message cannot be inflated (or is too large)');
  }
}

/** What every request message says about itself. */
export interface RequestHeader {
  root: Element;
  id: string;
  issuer: string;
  issueInstant: number;
  destination: string | null;
}

/** A request (or a LogoutResponse, whose header is the same) read from its XML. */
export function readRequest(xml: string, expected: 'AuthnRequest' | 'LogoutRequest' | 'LogoutResponse'): RequestHeader {
  return headerOf(parseXml(xml).documentElement, expected);
}

export function headerOf(root: Element, expected: 'AuthnRequest' | 'LogoutRequest' | 'LogoutResponse'): RequestHeader {
  if (root.namespaceURI !== NS.protocol || root.localName !== expected) throw new SamlError('This is not the SAML message expected here');
  if (root.getAttribute('Version') !== '2.0') throw new SamlError('Only SAML 2.0 is spoken', 'VersionMismatch');
  const id = root.getAttribute('ID');
  const issuer = textOf(childOf(root, NS.assertion, 'Issuer'));
  const issueInstant = Date.parse(root.getAttribute('IssueInstant') ?? '');
  if (!id || !issuer || Number.isNaN(issueInstant)) throw new SamlError('ID, Issuer and IssueInstant are required');
  // (xmldom answers '' for an absent attribute: presence is asked with hasAttribute.)
  return { root, id, issuer, issueInstant, destination: root.hasAttribute('Destination') ? root.getAttribute('Destination') : null };
}

/** Whether the message was sent to `endpoint`: its Destination names it; a signed message must
 *  carry one (bindings §3.4.5.2, §3.5.5.2), an unsigned one may leave it out. */
export const sentTo = (header: RequestHeader, signed: boolean, endpoint: string): boolean =>
  header.destination === endpoint || (!signed && header.destination === null);

/** Whether the message's IssueInstant is within the allowed clock skew of `now`. */
export const issuedNow = (header: RequestHeader, now: number): boolean => Math.abs(now - header.issueInstant) <= CLOCK_SKEW_MS;

export interface AssertionInput {
  issuer: string;
  audience: string;
  recipient: string;
  inResponseTo: string | null;
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
  authnInstant: number;
  now: number;
  attributes: Record<string, string[]>;
}

/** A message's status: a top-level code (Success, Requester, Responder or VersionMismatch: SAML core
 *  §3.2.2.2), the second-level one that says more (e.g. RequestDenied), and a message for people. */
export interface SamlStatus {
  code: 'Success' | 'Requester' | 'Responder' | 'VersionMismatch';
  second?: string;
  message?: string;
}

function addStatus(w: XmlWriter, status: SamlStatus) {
  const element = w.add(w.root, NS.protocol, 'samlp:Status');
  const code = w.add(element, NS.protocol, 'samlp:StatusCode', { Value: `urn:oasis:names:tc:SAML:2.0:status:${status.code}` });
  if (status.second) w.add(code, NS.protocol, 'samlp:StatusCode', { Value: `urn:oasis:names:tc:SAML:2.0:status:${status.second}` });
  if (status.message) w.add(element, NS.protocol, 'samlp:StatusMessage', {}, status.message);
}

/** A Response with `status`; with an assertion only for Success. Answers the XML and the ids to sign. */
export function buildResponse(
  input: Omit<AssertionInput, 'nameId' | 'nameIdFormat' | 'sessionIndex' | 'authnInstant' | 'attributes' | 'audience'>,
  status: SamlStatus,
  assertion?: Omit<AssertionInput, 'issuer' | 'recipient' | 'inResponseTo' | 'now'>,
) {
  const responseId = newId();
  const assertionId = newId();
  const at = instant(input.now);
  const w = new XmlWriter(NS.protocol, 'samlp:Response', {
    'xmlns:saml': NS.assertion,
    ID: responseId,
    Version: '2.0',
    IssueInstant: at,
    Destination: input.recipient,
    InResponseTo: input.inResponseTo ?? undefined,
  });
  w.add(w.root, NS.assertion, 'saml:Issuer', {}, input.issuer);
  addStatus(w, status);
  if (!assertion) return { xml: w.toString(), responseId, assertionId: undefined };
  const a = w.add(w.root, NS.assertion, 'saml:Assertion', {
    'xmlns:xsi': NS.xsi,
    'xmlns:xs': 'http://www.w3.org/2001/XMLSchema',
    ID: assertionId,
    Version: '2.0',
    IssueInstant: at,
  });
  w.add(a, NS.assertion, 'saml:Issuer', {}, input.issuer);
  const subject = w.add(a, NS.assertion, 'saml:Subject');
  w.add(subject, NS.assertion, 'saml:NameID', { Format: assertion.nameIdFormat }, assertion.nameId);
  const confirmation = w.add(subject, NS.assertion, 'saml:SubjectConfirmation', { Method: 'urn:oasis:names:tc:SAML:2.0:cm:bearer' });
  const until = instant(input.now + ASSERTION_TTL_MS);
  w.add(confirmation, NS.assertion, 'saml:SubjectConfirmationData', {
    InResponseTo: input.inResponseTo ?? undefined,
    NotOnOrAfter: until,
    Recipient: input.recipient,
  });
  const conditions = w.add(a, NS.assertion, 'saml:Conditions', { NotBefore: instant(input.now - 60_000), NotOnOrAfter: until });
  w.add(w.add(conditions, NS.assertion, 'saml:AudienceRestriction'), NS.assertion, 'saml:Audience', {}, assertion.audience);
  const authn = w.add(a, NS.assertion, 'saml:AuthnStatement', { AuthnInstant: instant(assertion.authnInstant), SessionIndex: assertion.sessionIndex });
  w.add(
    w.add(authn, NS.assertion, 'saml:AuthnContext'),
    NS.assertion,
    'saml:AuthnContextClassRef',
    {},
    'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
  );
  const entries = Object.entries(assertion.attributes).filter(([, values]) => values.length);
  if (entries.length) {
    const statement = w.add(a, NS.assertion, 'saml:AttributeStatement');
    for (const [name, values] of entries) {
      const attribute = w.add(statement, NS.assertion, 'saml:Attribute', { Name: name, NameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic' });
      for (const value of values) w.add(attribute, NS.assertion, 'saml:AttributeValue', { 'xsi:type': 'xs:string' }, value);
    }
  }
  return { xml: w.toString(), responseId, assertionId };
}

/** A LogoutResponse (to an SP's LogoutRequest; `message`: why it is refused) or a LogoutRequest (to end an SP's session). */
export function buildLogoutResponse(issuer: string, destination: string, inResponseTo: string, now: number, status: SamlStatus = { code: 'Success' }) {
  const id = newId();
  const w = new XmlWriter(NS.protocol, 'samlp:LogoutResponse', {
    'xmlns:saml': NS.assertion,
    ID: id,
    Version: '2.0',
    IssueInstant: instant(now),
    Destination: destination,
    InResponseTo: inResponseTo,
  });
  w.add(w.root, NS.assertion, 'saml:Issuer', {}, issuer);
  addStatus(w, status);
  return { xml: w.toString(), id };
}

export function buildLogoutRequest(issuer: string, destination: string, nameId: string, nameIdFormat: string, sessionIndex: string, now: number, id = newId()) {
  const w = new XmlWriter(NS.protocol, 'samlp:LogoutRequest', {
    'xmlns:saml': NS.assertion,
    ID: id,
    Version: '2.0',
    IssueInstant: instant(now),
    Destination: destination,
  });
  w.add(w.root, NS.assertion, 'saml:Issuer', {}, issuer);
  w.add(w.root, NS.assertion, 'saml:NameID', { Format: nameIdFormat }, nameId);
  w.add(w.root, NS.protocol, 'samlp:SessionIndex', {}, sessionIndex);
  return { xml: w.toString(), id };
}
