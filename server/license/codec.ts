// Licenses: a JSON payload signed with the vendor's Ed25519 key (node:crypto), written as
// base64url(payload) + '.' + base64url(signature). The server holds only the public key.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';

export interface LicensePayload {
  v: 1;
  licensee: string;
  /** The installation's request code (GET /license/auth): a license works only where it was asked for. */
  requestCode: string;
  issuedAt: string;
  expiresAt: string;
  userLimit: number;
}

export type LicenseReading = { ok: true; payload: LicensePayload } | { ok: false; reason: 'malformed' | 'signature' };

export function generateVendorKeys(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function signLicense(payload: LicensePayload, privateKeyPem: string): string {
  const body = Buffer.from(JSON.stringify(payload));
  const signature = sign(null, body, createPrivateKey(privateKeyPem));
  return `${body.toString('base64url')}.${signature.toString('base64url')}`;
}

function isPayload(value: unknown): value is LicensePayload {
  const payload = value as Partial<LicensePayload> | null;
  return (
    typeof payload === 'object' &&
    payload !== null &&
    payload.v === 1 &&
    typeof payload.licensee === 'string' &&
    typeof payload.requestCode === 'string' &&
    typeof payload.issuedAt === 'string' &&
    !Number.isNaN(Date.parse(payload.issuedAt)) &&
    typeof payload.expiresAt === 'string' &&
    !Number.isNaN(Date.parse(payload.expiresAt)) &&
    Number.isInteger(payload.userLimit) &&
    (payload.userLimit ?? 0) > 0
  );
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Strict base64url: Node's decoder skips characters outside the alphabet and ignores leftover
 * bits, so junk inside a license (or another spelling of the same bytes) would still verify.
 * Only the alphabet, no padding, and exactly the text the bytes encode back to.
 */
function decodeBase64url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

export function readLicense(text: string, publicKeyPem: string): LicenseReading {
  const [body, signature, extra] = text.trim().split('.');
  const bytes = body === undefined ? undefined : decodeBase64url(body);
  const signatureBytes = signature === undefined ? undefined : decodeBase64url(signature);
  if (!bytes || !signatureBytes || extra !== undefined) return { ok: false, reason: 'malformed' };
  if (!verify(null, bytes, createPublicKey(publicKeyPem), signatureBytes)) return { ok: false, reason: 'signature' };
  let payload: unknown;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  return isPayload(payload) ? { ok: true, payload } : { ok: false, reason: 'malformed' };
}
