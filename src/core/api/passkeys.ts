// Passkeys: the signed-in person's own (list, add, rename, remove) and the sign-in with one. The
// ceremonies themselves (the browser's prompt) are in ../passkeys.ts, loaded when first used.
import type * as v from 'valibot';
import { request, type Query } from '../http';
import { apiPath } from './path';
import type { authenticationCredential, passkeyCreationOptions, passkeyInfo, passkeyRequestOptions, registrationCredential } from '../schemas/passkeys';
import type { LoginAnswer } from '../types';

export type PasskeyInfo = v.InferOutput<typeof passkeyInfo>;
export type PasskeyCreationOptions = v.InferOutput<typeof passkeyCreationOptions>;
export type PasskeyRequestOptions = v.InferOutput<typeof passkeyRequestOptions>;
export type RegistrationCredential = v.InferInput<typeof registrationCredential>;
export type AuthenticationCredential = v.InferInput<typeof authenticationCredential>;

export function myPasskeys(): Promise<PasskeyInfo[]> {
  return request('GET', '/user/passkeys', { silent: true });
}

/** The options of a new passkey, once the current password (already transformed) is right. Silent:
 *  the form shows a wrong password at its field. */
export function passkeyCreation(password: string): Promise<PasskeyCreationOptions> {
  return request('POST', '/user/passkeys/options', { body: { password }, silent: true });
}

export function addPasskey(name: string, credential: RegistrationCredential): Promise<PasskeyInfo> {
  return request('POST', '/user/passkeys', { body: { name, credential }, silent: true });
}

export function renamePasskey(id: string, name: string): Promise<PasskeyInfo> {
  return request('PUT', apiPath`/user/passkeys/${id}`, { body: { name }, silent: true });
}

export function removePasskey(id: string): Promise<void> {
  return request('DELETE', apiPath`/user/passkeys/${id}`);
}

/** Silent and without the 401 redirect, like the password sign-in: the form reports its errors. */
export function passkeySignInOptions(): Promise<PasskeyRequestOptions> {
  return request('POST', '/authc/passkey/options', { silent: true, authRedirect: false });
}

export function passkeyLogin(credential: AuthenticationCredential, query?: Query, language?: string): Promise<LoginAnswer> {
  const headers = language ? { 'accept-language': language } : undefined;
  return request('POST', '/authc/passkey/login', { body: { credential }, query, headers, silent: true, authRedirect: false });
}
