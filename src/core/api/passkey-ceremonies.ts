// The passkey calls around a browser ceremony: the options of navigator.credentials.create() or
// .get() and the authenticator's answer. Used by ../passkeys.ts only, which the sign-in form loads
// lazily; kept apart from the list calls (./passkeys.ts) so that lazy chunk needs nothing else.
import type { CallAnswer } from '../contract/declare';
import { postAuthcPasskeyLogin, postAuthcPasskeyOptions, postUserPasskeys, postUserPasskeysOptions } from '../contract/passkeys';
import type { LoginQuery } from './auth';
import { call } from './call';
import type { AuthenticationCredential, PasskeyCreationOptions, PasskeyInfo, PasskeyRequestOptions, RegistrationCredential } from './passkeys';

/** The options of a new passkey, once the current password (already transformed) is right. Silent:
 *  the form shows a wrong password at its field. */
export function passkeyCreation(password: string): Promise<PasskeyCreationOptions> {
  return call(postUserPasskeysOptions, { body: { password } }, { silent: true });
}

export function addPasskey(name: string, credential: RegistrationCredential): Promise<PasskeyInfo> {
  return call(postUserPasskeys, { body: { name, credential } }, { silent: true });
}

/** Silent and without the 401 redirect, like the password sign-in: the form reports its errors. */
export function passkeySignInOptions(): Promise<PasskeyRequestOptions> {
  return call(postAuthcPasskeyOptions, {}, { silent: true, authRedirect: false });
}

export function passkeyLogin(credential: AuthenticationCredential, query?: LoginQuery, language?: string): Promise<CallAnswer<typeof postAuthcPasskeyLogin>> {
  const headers = language ? { 'accept-language': language } : undefined;
  return call(postAuthcPasskeyLogin, { body: { credential }, query }, { headers, silent: true, authRedirect: false });
}
