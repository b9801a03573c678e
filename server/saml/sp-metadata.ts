// A service provider's metadata (an EntityDescriptor with an SPSSODescriptor), read into the
// settings of server/services/saml-providers.ts: entity ID, assertion consumer services (HTTP-POST
// and HTTP-Redirect; others are left out), the Single Logout service (SOAP preferred, then the
// browser bindings), NameID format, certificates.
import { BINDINGS, childOf, childrenOf, NS, parseXml, SamlError, textOf } from './xml';
import { toPem } from './certificates';
import type { NameIdFormat, SloBinding } from '../../src/core/schemas/saml';

export const NAME_ID_URNS: Record<NameIdFormat, string> = {
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  transient: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
};

const bindingName = (urn: string | null): 'HTTP-POST' | 'HTTP-Redirect' | undefined =>
  urn === BINDINGS.post ? 'HTTP-POST' : urn === BINDINGS.redirect ? 'HTTP-Redirect' : undefined;

/** An assertion consumer service; `index` is its metadata index (when absent: its position in the
 *  list the administrator gave). */
export interface AcsService {
  url: string;
  binding: 'HTTP-POST' | 'HTTP-Redirect';
  index?: number;
}

/** An unsignedShort index attribute, or nothing. */
export function indexOf(text: string | null): number | undefined {
  return text !== null && /^\d{1,5}$/.test(text) && Number(text) <= 65535 ? Number(text) : undefined;
}

export interface SpMetadata {
  entityId: string;
  acsUrls: AcsService[];
  sloUrl?: string;
  sloBinding?: SloBinding;
  nameIdFormat?: NameIdFormat;
  signingCert?: string;
  encryptionCert?: string;
  wantRequestsSigned?: boolean;
  wantAssertionsSigned?: boolean;
}

function certificateOf(descriptor: Element, use: 'signing' | 'encryption'): string | undefined {
  const keys = childrenOf(descriptor, NS.metadata, 'KeyDescriptor');
  const key = keys.find((k) => k.getAttribute('use') === use) ?? keys.find((k) => !k.getAttribute('use'));
  const keyInfo = key && childOf(key, NS.dsig, 'KeyInfo');
  const data = keyInfo && childOf(keyInfo, NS.dsig, 'X509Data');
  const text = textOf(data && childOf(data, NS.dsig, 'X509Certificate'));
  return text ? toPem(text) : undefined;
}

export function readSpMetadata(xml: string): SpMetadata {
  const root = parseXml(xml).documentElement;
  if (root.namespaceURI !== NS.metadata || root.localName !== 'EntityDescriptor') throw new SamlError('Not an EntityDescriptor');
  const descriptor = childOf(root, NS.metadata, 'SPSSODescriptor');
  const entityId = root.getAttribute('entityID');
  if (!descriptor || !entityId) throw new SamlError('No SPSSODescriptor or entityID');
  // Each service keeps its `index` (what an AuthnRequest's AssertionConsumerServiceIndex names);
  // the default one goes first (used when a request names none).
  const acsUrls = childrenOf(descriptor, NS.metadata, 'AssertionConsumerService')
    .sort((a, b) => Number(b.getAttribute('isDefault') === 'true') - Number(a.getAttribute('isDefault') === 'true'))
    .flatMap((service) => {
      const binding = bindingName(service.getAttribute('Binding'));
      const url = service.getAttribute('Location');
      const index = indexOf(service.getAttribute('index'));
      return binding && url ? [{ url, binding, ...(index === undefined ? {} : { index }) }] : [];
    });
  // SOAP first: it reaches the app however the person's session ends; then the browser bindings.
  const slos = childrenOf(descriptor, NS.metadata, 'SingleLogoutService');
  const slo = slos.find((service) => service.getAttribute('Binding') === BINDINGS.soap) ?? slos.find((service) => bindingName(service.getAttribute('Binding')));
  const sloBinding = slo && (slo.getAttribute('Binding') === BINDINGS.soap ? 'SOAP' : bindingName(slo.getAttribute('Binding')));
  const format = textOf(childOf(descriptor, NS.metadata, 'NameIDFormat'));
  const nameIdFormat = (Object.keys(NAME_ID_URNS) as NameIdFormat[]).find((key) => NAME_ID_URNS[key] === format);
  return {
    entityId,
    acsUrls,
    ...(slo?.getAttribute('Location') && sloBinding ? { sloUrl: slo.getAttribute('Location')!, sloBinding } : {}),
    ...(nameIdFormat ? { nameIdFormat } : {}),
    ...optional('signingCert', certificateOf(descriptor, 'signing')),
    ...optional('encryptionCert', certificateOf(descriptor, 'encryption')),
    ...(descriptor.getAttribute('AuthnRequestsSigned') ? { wantRequestsSigned: descriptor.getAttribute('AuthnRequestsSigned') === 'true' } : {}),
    ...(descriptor.getAttribute('WantAssertionsSigned') ? { wantAssertionsSigned: descriptor.getAttribute('WantAssertionsSigned') === 'true' } : {}),
  };
}

const optional = <K extends string>(key: K, value: string | undefined) => (value ? ({ [key]: value } as Record<K, string>) : {});
