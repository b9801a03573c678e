// The signed-in person's passkeys: the list, renaming, removing. Adding one and signing in with
// one go through a browser ceremony (./passkey-ceremonies.ts, driven by ../passkeys.ts).
import type * as v from 'valibot';
import type { CallAnswer } from '../contract/declare';
import { deleteUserPasskeysById, getUserPasskeys, postAuthcPasskeyOptions, postUserPasskeysOptions, putUserPasskeysById } from '../contract/passkeys';
import { transformPassword } from '../password-transform';
import type { authenticationCredential, registrationCredential } from '../schemas/passkeys';
import { call } from './call';

export type PasskeyInfo = CallAnswer<typeof putUserPasskeysById>;
export type PasskeyCreationOptions = CallAnswer<typeof postUserPasskeysOptions>;
export type PasskeyRequestOptions = CallAnswer<typeof postAuthcPasskeyOptions>;
export type RegistrationCredential = v.InferInput<typeof registrationCredential>;
export type AuthenticationCredential = v.InferInput<typeof authenticationCredential>;

export function myPasskeys(): Promise<PasskeyInfo[]> {
  return call(getUserPasskeys, {}, { silent: true });
}

export function renamePasskey(id: string, name: string): Promise<PasskeyInfo> {
  return call(putUserPasskeysById, { params: { id }, body: { name } }, { silent: true });
}

/** Removing one takes my current password again (plain; transformed here). Silent: the dialog
 *  shows a wrong password at its field. */
export async function removePasskey(id: string, password: string): Promise<void> {
  await call(deleteUserPasskeysById, { params: { id }, body: { password: await transformPassword(password) } }, { silent: true });
}
