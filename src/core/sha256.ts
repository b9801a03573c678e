// SHA-256 in JavaScript (@noble/hashes), for engines and pages without Web Crypto: crypto.subtle
// is missing on plain-http pages and in old engines. The sign-in entry loads this only then.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
