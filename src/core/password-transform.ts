// Passwords never leave the browser in plain text: they are trimmed, then transformed (by default
// the lowercase hex SHA-256 of their UTF-8 bytes; the server hashes that again with a slow KDF).
// The default uses Web Crypto where the page has it (secure contexts) and loads the JavaScript
// SHA-256 of sha256.ts only where it has not, so the sign-in entry does not ship a hash function.
// Apart from the policy check (password.ts), which needs the validation rules.

/** Turns a trimmed plain password into the value sent to the server. */
export type PasswordTransform = (trimmed: string) => string | Promise<string>;

/** The default transform: lowercase hex SHA-256 of the UTF-8 bytes of `trimmed`. */
export async function sha256HexTransform(trimmed: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return (await import('./sha256')).sha256Hex(trimmed);
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(trimmed));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

let transform: PasswordTransform = sha256HexTransform;

/** Replaces the transform (e.g. a host's own hashing routine); without an argument restores SHA-256 hex. */
export function setPasswordTransform(fn: PasswordTransform = sha256HexTransform): void {
  transform = fn;
}

/** Trims and transforms a password that is only checked by the server (login, old or administrator password). */
export async function transformPassword(plain: string): Promise<string> {
  return transform(plain.trim());
}
