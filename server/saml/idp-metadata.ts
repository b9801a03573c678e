// This identity provider's metadata, at a stable URL (its entity ID): both published signing
// certificates (during a rotation, server/saml/keys.ts), the SSO and SLO services in both
// bindings, the NameID formats it can give.
import type { Ctx } from '../context';
import { BINDINGS, NS, XmlWriter } from './xml';
import { certificateBody } from './certificates';
import { idpEndpoints } from './endpoints';
import { publishedKeys } from './keys';
import { NAME_ID_URNS } from './sp-metadata';

export async function idpMetadata(ctx: Ctx): Promise<string> {
  const endpoints = idpEndpoints(ctx);
  const keys = await publishedKeys(ctx.db, ctx.now());
  const w = new XmlWriter(NS.metadata, 'md:EntityDescriptor', { 'xmlns:ds': NS.dsig, entityID: endpoints.entityId });
  const idp = w.add(w.root, NS.metadata, 'md:IDPSSODescriptor', { WantAuthnRequestsSigned: 'false', protocolSupportEnumeration: NS.protocol });
  for (const key of keys) {
    const info = w.add(w.add(idp, NS.metadata, 'md:KeyDescriptor', { use: 'signing' }), NS.dsig, 'ds:KeyInfo');
    w.add(w.add(info, NS.dsig, 'ds:X509Data'), NS.dsig, 'ds:X509Certificate', {}, certificateBody(key.certificate));
  }
  for (const binding of [BINDINGS.redirect, BINDINGS.post]) w.add(idp, NS.metadata, 'md:SingleLogoutService', { Binding: binding, Location: endpoints.sloUrl });
  for (const format of Object.values(NAME_ID_URNS)) w.add(idp, NS.metadata, 'md:NameIDFormat', {}, format);
  for (const binding of [BINDINGS.redirect, BINDINGS.post]) w.add(idp, NS.metadata, 'md:SingleSignOnService', { Binding: binding, Location: endpoints.ssoUrl });
  return w.toString();
}
