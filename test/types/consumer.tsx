// A host page's code written against the published typings (packages/iam-console/dist/types), as a
// person who installed iam-console would write it. test/e2e/doc-snippets.test.ts compiles it after the
// build; every line below must typecheck, and each `@ts-expect-error` must stay an error.
import 'iam-console/elements';
import type {
  ConsoleErrorDetail,
  IamConsoleAttributes,
  IamConsoleElement,
  IamEventMap,
  IamEventType,
  IamLoginAttributes,
  IamLoginElement,
  IamPasswordDialogElement,
  IamProfileDialogElement,
  IamProviderElement,
  LoginErrorDetail,
  LoginSubmitDetail,
  LoginSuccessDetail,
  LogoutDetail,
  NavigateDetail,
  PasswordChangedDetail,
  ProfileSavedDetail,
} from 'iam-console/elements';
import type { LoginSuccessDetail as LoginEntrySuccess } from 'iam-console/login';
import { $session, iamFetch, transformPassword } from 'iam-console/core';

const login = document.createElement('iam-login');
login.setAttribute('api-base', '/api');
login.addEventListener('iam-login-success', (event) => {
  const username: string = event.detail.username;
  const next: string | undefined = event.detail.redirectURL;
  console.log(username, next);
});

const consoleElement: IamConsoleElement = document.createElement('iam-console');
consoleElement.addEventListener('iam-navigate', (event) => console.log(event.detail.path));

// @ts-expect-error the success detail has no password
login.addEventListener('iam-login-success', (event) => event.detail.password);

// The events bubble (composed) to the document and the window, typed there too (README's snippet).
document.addEventListener('iam-login-success', (event) => console.log('signed in', event.detail.username));
window.addEventListener('iam-navigate', (event) => console.log(event.detail.path));
// @ts-expect-error typed on the document as well: no password in the detail
document.addEventListener('iam-login-success', (event) => event.detail.password);

export function HostPage() {
  return (
    <iam-provider api-base="/api" locale="zh" theme="light">
      <iam-console ui-embed routing="memory" route="/operate/user" />
      <iam-login redirect="/home" />
      {/* @ts-expect-error themes are dark or light */}
      <iam-login theme="blue" />
    </iam-provider>
  );
}

export const hashed: Promise<string> = transformPassword('secret');

// Every type docs/elements.md names, as a host uses it.
const profile: IamProfileDialogElement = document.createElement('iam-profile-dialog');
profile.open = true;
profile.addEventListener('iam-profile-saved', (event: CustomEvent<ProfileSavedDetail>) => console.log(event.detail.userId));
const password: IamPasswordDialogElement = document.createElement('iam-password-dialog');
password.mode = 'user';
password.addEventListener('iam-password-changed', (event: CustomEvent<PasswordChangedDetail>) => console.log(event.detail.mode));
const provider: IamProviderElement = document.createElement('iam-provider');
const signIn: IamLoginElement = document.createElement('iam-login');
signIn.authMode = 'token';
consoleElement.addEventListener('iam-logout', (event: CustomEvent<LogoutDetail>) => console.log(event.detail));
consoleElement.addEventListener('iam-navigate', (event: CustomEvent<NavigateDetail>) => console.log(event.detail.path));
consoleElement.addEventListener('iam-error', (event) => console.log(event.detail.message));
const details: [LoginSubmitDetail, LoginSuccessDetail, LoginEntrySuccess, LoginErrorDetail, ConsoleErrorDetail] = [
  { username: 'a' },
  { username: 'a' },
  { username: 'a' },
  { message: 'm' },
  { message: 'm' },
];
const attributes: [IamLoginAttributes, IamConsoleAttributes] = [
  { 'auth-mode': 'token', 'token-name': 'x-shop-token' },
  { routing: 'memory', 'ui-embed': true },
];
// @ts-expect-error routing is history or memory
const badRouting: IamConsoleAttributes = { routing: 'hash' };
console.log(provider, details, attributes, badRouting);

// The host page calls the API with the elements' session and knows who signed in.
export const profileAnswer: Promise<Response> = iamFetch('/user/profile');
export const signedInName: string | undefined = $session.get().user?.username;

// Every event of the events table (src/elements/events.ts) is typed alike on elements, the document
// and the window, with the detail the table names.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type EverywhereAlike = {
  [Type in IamEventType]: Same<HTMLElementEventMap[Type], IamEventMap[Type]> extends true
    ? Same<DocumentEventMap[Type], IamEventMap[Type]> extends true
      ? Same<WindowEventMap[Type], IamEventMap[Type]>
      : false
    : false;
};
export const everywhereAlike: EverywhereAlike = {
  'iam-navigate': true,
  'iam-logout': true,
  'iam-error': true,
  'iam-login-submit': true,
  'iam-login-success': true,
  'iam-profile-saved': true,
  'iam-password-changed': true,
  'iam-close': true,
};
export const errorDetail: Same<IamEventMap['iam-error'], CustomEvent<LoginErrorDetail | ConsoleErrorDetail>> = true;
export const closeDetail: Same<WindowEventMap['iam-close'], CustomEvent<Record<string, never>>> = true;
