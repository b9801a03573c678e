// Encrypted assertions (SAML core §2.3.4, XML Encryption): for an app that registered an
// encryption certificate, the (signed) assertion is encrypted with a fresh AES-256 key (GCM, or
// CBC for an app that reads nothing else), the key transported with RSA-OAEP under the app's
// certificate, and the assertion replaced by an <EncryptedAssertion>; the Response's own signature
// is computed after, over the encrypted form. The XML Encryption is xml-encryption's (auth0),
// the library node-saml and passport-saml decrypt with, rather than our own.
import { createPublicKey } from 'node:crypto';
import { promisify } from 'node:util';
import xmlenc from 'xml-encryption';
import type { AssertionEncryption } from '../../src/core/schemas/saml';
import { NS, parseXml, serialize } from './xml';

const ALGORITHMS: Record<AssertionEncryption, xmlenc.EncryptionAlgorithm> = {
  'aes256-gcm': 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
  'aes256-cbc': 'http://www.w3.org/2001/04/xmlenc#aes256-cbc',
};
const RSA_OAEP = 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p';

const encrypt = promisify<string, xmlenc.EncryptOptions, string>(xmlenc.encrypt);

/** The Response `xml` with its assertion `assertionId` encrypted for `certificate` (PEM). */
export async function encryptAssertion(xml: string, assertionId: string, certificate: string, algorithm: AssertionEncryption): Promise<string> {
  const doc = parseXml(xml);
  const assertion = Array.from(doc.getElementsByTagNameNS(NS.assertion, 'Assertion') as unknown as ArrayLike<Element>).find(
    (element) => element.getAttribute('ID') === assertionId,
  );
  if (!assertion) throw new Error('No assertion to encrypt');
  const encrypted = await encrypt(serialize(assertion), {
    rsa_pub: createPublicKey(certificate).export({ type: 'spki', format: 'pem' }).toString(),
    pem: certificate,
    encryptionAlgorithm: ALGORITHMS[algorithm],
    keyEncryptionAlgorithm: RSA_OAEP,
    // AES-CBC is marked insecure by xml-encryption (padding-oracle attacks on XML Encryption): sent
    // only to an app registered for it, whose administrator chose it (docs/saml.md).
    disallowEncryptionWithInsecureAlgorithm: algorithm !== 'aes256-cbc',
    warnInsecureAlgorithm: false,
  });
  const wrapper = doc.createElementNS(NS.assertion, 'saml:EncryptedAssertion');
  wrapper.appendChild(doc.importNode(parseXml(encrypted).documentElement, true));
  assertion.parentNode!.replaceChild(wrapper, assertion);
  return serialize(doc);
}
