// XML signatures (xml-crypto): what this identity provider signs (responses, assertions and logout
// messages: RSA-SHA256 only, exclusive canonicalization) and how a service provider's signed
// message is checked: RSA with SHA-1, SHA-256, SHA-384 or SHA-512 (SHA-1 digests too), what real
// service providers sign with. SHA-1 is accepted on what an app sends, as Keycloak and Authentik
// accept it, because pysaml2 and Lasso (mod_auth_mellon) sign with it by default: a request's
// signature only tells which app sent it, and where an assertion may go is decided by the services
// the app registered, never by the request, so a forged request can reach no one else. What we
// sign, which apps must trust, never uses SHA-1. Any other algorithm is refused, saying which are
// accepted.
// A signed message is read from what the signature covers, never from the document around it:
// that defeats signature wrapping (a signed element moved aside while forged values are read).
import { createPublicKey, createVerify, verify } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { childrenOf, NS, parseXml, SamlError } from './xml';
import type { SigningKey } from './keys';
import type { ProtocolParams } from './bindings-query';

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const RSA_SHA384 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** The signature algorithms accepted from a service provider, with their hash (node:crypto's name). */
const ACCEPTED_SIGNATURES: Readonly<Record<string, 'sha1' | 'sha256' | 'sha384' | 'sha512'>> = {
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': 'sha1',
  [RSA_SHA256]: 'sha256',
  [RSA_SHA384]: 'sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
};
/** The hash of an accepted signature algorithm; any other is refused, naming those accepted. */
function hashOf(algorithm: string | undefined) {
  if (algorithm && Object.hasOwn(ACCEPTED_SIGNATURES, algorithm)) return ACCEPTED_SIGNATURES[algorithm]!;
  throw new SamlError('The signature algorithm is not supported: sign with RSA-SHA1, RSA-SHA256, RSA-SHA384 or RSA-SHA512', 'RequestDenied');
}

/** RSA-SHA384 for xml-crypto, which knows RSA-SHA256 and RSA-SHA512 but not it (verification only). */
class RsaSha384 {
  getAlgorithmName = () => RSA_SHA384;
  verifySignature = (material: string, key: string, signatureValue: string) =>
    createVerify('RSA-SHA384').update(material).verify(key, signatureValue, 'base64');
  getSignature = (): string => {
    throw new Error('This server signs with RSA-SHA256');
  };
}
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
  checker.SignatureAlgorithms[RSA_SHA384] = RsaSha384;
  checker.loadSignature(own[0]!);
  const references = checker.getReferences();
  if (references.length !== 1 || references[0]!.uri !== `#${id}`) throw new SamlError('The signature must cover the whole message', 'RequestDenied');
  hashOf(checker.signatureAlgorithm); // throws when the algorithm is not accepted
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
 *  received (their raw octets, in this order), which are the very parameters read. Throws why not. */
export function verifyRedirectSignature(params: ProtocolParams, kind: 'SAMLRequest' | 'SAMLResponse', certificate: string): void {
  const { [kind]: message, RelayState: relayState, SigAlg: sigAlg, Signature: signature } = params;
  if (!message || !sigAlg || !signature) throw new SamlError('The message must be signed (its Signature and SigAlg parameters)', 'RequestDenied');
  const hash = hashOf(sigAlg.value);
  const octets = [message.raw, relayState?.raw, sigAlg.raw].filter(Boolean).join('&');
  let valid = false;
  try {
    valid = verify(hash, Buffer.from(octets), createPublicKey(certificate), Buffer.from(signature.value, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) throw new SamlError('The signature does not verify', 'RequestDenied');
}
