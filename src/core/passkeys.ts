// The browser's side of passkeys (@simplewebauthn/browser around navigator.credentials), imported
// only where a passkey is used (a dynamic import): the sign-in entry has a size budget it nearly
// fills. Signing in with a passkey (a prompt, or the username field's autofill), answering a
// sign-in's second step with one, and creating one.
import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { loginStep } from './api/login-step';
import * as api from './api/passkey-ceremonies';
import type { PasskeyInfo, PasskeyRequestOptions } from './api/passkeys';
import type { Query } from './http';
import { transformPassword } from './password-transform';
import { finishSignIn, submitNextStep, type LoginResult } from './session';

/** The options as the server answered them (its schema is the contract) in the library's types. */
const requestOptions = (options: PasskeyRequestOptions) => options as PublicKeyCredentialRequestOptionsJSON;

/** Whether the browser offers passkeys in the username field's suggestions (conditional mediation). */
export const autofillSupported = browserSupportsWebAuthnAutofill;

/**
 * Signs in with a passkey: a browser prompt, or with `autofill` a request that waits until the
 * person picks a passkey among the username field's suggestions (that field carries
 * autocomplete="username webauthn"). Starting another ceremony ends a waiting one. The sign-in then
 * ends like a password sign-in (session read, token kept in token mode).
 */
export async function signInWithPasskey(input: { autofill?: boolean; query?: Query; language?: string }): Promise<Extract<LoginResult, { kind: 'success' }>> {
  const optionsJSON = requestOptions(await api.passkeySignInOptions());
  // The library's check for the username field looks in the document only; the console renders the
  // form in its shadow root, where the browser's autofill still finds it.
  const credential = await startAuthentication({ optionsJSON, useBrowserAutofill: input.autofill === true, verifyBrowserAutofillInput: false });
  return finishSignIn(await api.passkeyLogin(credential, input.query, input.language));
}

/** Answers a sign-in's second step with a passkey, for the options that step gave: with the step
 *  ticket of a first factor that cannot be sent again (a phone code, a third-party provider), else
 *  as the password form's pending step. */
export async function passkeySecondStep(options: PasskeyRequestOptions, language?: string, stepTicket?: string): Promise<LoginResult> {
  const passkey = await startAuthentication({ optionsJSON: requestOptions(options) });
  return stepTicket ? finishSignIn(await loginStep(stepTicket, { passkey }, language)) : submitNextStep({ passkey, language });
}

/** Adds a passkey: the current password (plain; transformed here), the browser's prompt, stored under `name`. */
export async function createPasskey(name: string, password: string): Promise<PasskeyInfo> {
  const options = await api.passkeyCreation(await transformPassword(password));
  const credential = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
  return api.addPasskey(name, credential);
}

/** The browser's prompt was closed, timed out, or refused (an excluded passkey is there already):
 *  nothing to report but "try again". */
export const promptDeclined = (error: unknown) => error instanceof Error && ['NotAllowedError', 'AbortError', 'InvalidStateError'].includes(error.name);

/** Ends a waiting passkey request (the autofill one when its form goes away). */
export const cancelPrompt = () => WebAuthnAbortService.cancelCeremony();
