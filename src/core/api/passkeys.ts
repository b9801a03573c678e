// The signed-in person's passkeys: the list, renaming, removing. Adding one and signing in with
// one go through a browser ceremony (./passkey-ceremonies.ts, driven by ../passkeys.ts).
import type * as v from 'valibot';
import { request } from '../http';
import { apiPath } from './path';
import { transformPassword } from '../password-transform';
import type { authenticationCredential, passkeyCreationOptions, passkeyInfo, passkeyRequestOptions, registrationCredential } from '../schemas/passkeys';

export type PasskeyInfo = v.InferOutput<typeof passkeyInfo>;
export type PasskeyCreationOptions = v.InferOutput<typeof passkeyCreationOptions>;
export type PasskeyRequestOptions = v.InferOutput<typeof passkeyRequestOptions>;
export type RegistrationCredential = v.InferInput<typeof registrationCredential>;
export type AuthenticationCredential = v.InferInput<typeof authenticationCredential>;

export function myPasskeys(): Promise<PasskeyInfo[]> {
  return request('GET', '/user/passkeys', { silent: true });
}

export function renamePasskey(id: string, name: string): Promise<PasskeyInfo> {
  return request('PUT', apiPath`/user/passkeys/${id}`, { body: { name }, silent: true });
}

/** Removing one takes my current password again (plain; transformed here). Silent: the dialog
 *  shows a wrong password at its field. */
export async function removePasskey(id: string, password: string): Promise<void> {
  return request('DELETE', apiPath`/user/passkeys/${id}`, { body: { password: await transformPassword(password) }, silent: true });
}
