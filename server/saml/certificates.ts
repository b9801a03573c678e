// Certificates as SAML carries them: base64 DER inside <ds:X509Certificate>, PEM in the database.
import { X509Certificate } from 'node:crypto';
import { SamlError } from './xml';

/** The base64 body of a certificate given as PEM or bare base64 (whitespace removed). */
export const certificateBody = (text: string) => text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

/** A certificate in PEM, checked to be one (a field's text, metadata's X509Certificate). */
export function toPem(text: string): string {
  const body = certificateBody(text);
  const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw new SamlError('This is not an X.509 certificate');
  }
  return pem;
}

/** Whether the certificate's key is RSA: an assertion's key is transported with RSA-OAEP
 *  (encryption.ts), which no other key type can do. */
export const hasRsaKey = (pem: string) => new X509Certificate(pem).publicKey.asymmetricKeyType === 'rsa';
