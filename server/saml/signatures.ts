// XML signatures (xml-crypto): what this identity provider signs (responses and assertions,
// RSA-SHA256, exclusive canonicalization) and how a service provider's signed message is checked.
// A signed message is read from what the signature covers, never from the document around it:
// that defeats signature wrapping (a signed element moved aside while forged values are read).
import { createPublicKey, verify } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { childrenOf, NS, parseXml, SamlError } from './xml';
import type { SigningKey } from './keys';
import type { ProtocolParams } from './bindings-query';

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** Signs the element with `ID` = `id`; the signature goes right after its Issuer, as SAML wants. */
export function signElement(xml: string, id: string, key: SigningKey): string {
  const signer = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificate,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  signer.addReference({ xpath: `//*[@ID='${id}']`, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: `//*[@ID='${id}']/*[local-name()='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** The root element of an enveloped-signed message, as signed by `certificate`: exactly one
 *  signature, a direct child of the root, with one reference: the root itself (its ID unique in
 *  the document). Answers the signed root, parsed from the signed bytes. */
export function verifiedRoot(xml: string, certificate: string): Element {
  const doc = parseXml(xml);
  const root = doc.documentElement;
  const id = root.getAttribute('ID');
  const signatures = doc.getElementsByTagNameNS(NS.dsig, 'Signature');
  const own = childrenOf(root, NS.dsig, 'Signature');
  if (!id || signatures.length !== 1 || own.length !== 1) throw new SamlError('The message must carry one signature over itself', 'RequestDenied');
  const sameId = Array.from(doc.getElementsByTagName('*') as unknown as ArrayLike<Element>).filter((element) => element.getAttribute('ID') === id);
  if (sameId.length !== 1) throw new SamlError('The message ID is not unique', 'RequestDenied');
  const checker = new SignedXml({ publicCert: certificate, getCertFromKeyInfo: () => null });
  checker.loadSignature(own[0]!);
  const references = checker.getReferences();
  if (references.length !== 1 || references[0]!.uri !== `#${id}`) throw new SamlError('The signature must cover the whole message', 'RequestDenied');
  if (checker.signatureAlgorithm !== RSA_SHA256) throw new SamlError('The signature must be RSA-SHA256', 'RequestDenied');
  let valid = false;
  try {
    valid = checker.checkSignature(xml);
  } catch {
    valid = false;
  }
  const signed = checker.getSignedReferences();
  if (!valid || signed.length !== 1) throw new SamlError('The signature does not verify', 'RequestDenied');
  return parseXml(signed[0]!).documentElement;
}

/** HTTP-Redirect binding: the signature is over the message, RelayState and SigAlg parameters as
 *  received (their raw octets, in this order), which are the very parameters read. */
export function verifyRedirectSignature(params: ProtocolParams, kind: 'SAMLRequest' | 'SAMLResponse', certificate: string): boolean {
  const { [kind]: message, RelayState: relayState, SigAlg: sigAlg, Signature: signature } = params;
  if (!message || !sigAlg || !signature || sigAlg.value !== RSA_SHA256) return false;
  const octets = [message.raw, relayState?.raw, sigAlg.raw].filter(Boolean).join('&');
  try {
    return verify('sha256', Buffer.from(octets), createPublicKey(certificate), Buffer.from(signature.value, 'base64'));
  } catch {
    return false;
  }
}
