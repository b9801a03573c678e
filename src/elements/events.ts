// The events table: every iam-* event each element fires, with the type of its `detail` and what
// it means, declared here once. From it come the typings (IamEventMap in ./types.ts, added to
// HTMLElementEventMap, DocumentEventMap and WindowEventMap), the events of custom-elements.json
// (scripts/manifest.mjs) and therefore docs/elements.md. Every event is a CustomEvent with
// `bubbles: true, composed: true`: it leaves shadow roots and reaches the document and the window.
// This module imports types only: the build scripts load it on its own (esbuild).
import type { LoginErrorDetail, LoginSubmitDetail, LoginSuccessDetail } from '../react/login/LoginForm';
import type { ConsoleErrorDetail, LogoutDetail, NavigateDetail } from '../react/app/context';
import type { PasswordChangedDetail, ProfileSavedDetail } from '../react/dialogs/elementApps';
import type { ElementTag } from './attributes';

/** The `detail` types by the name the package exports them under (the table names them by it). */
interface EventDetails {
  LoginSubmitDetail: LoginSubmitDetail;
  LoginSuccessDetail: LoginSuccessDetail;
  LoginErrorDetail: LoginErrorDetail;
  ConsoleErrorDetail: ConsoleErrorDetail;
  NavigateDetail: NavigateDetail;
  LogoutDetail: LogoutDetail;
  ProfileSavedDetail: ProfileSavedDetail;
  PasswordChangedDetail: PasswordChangedDetail;
  /** An event that carries nothing. */
  'Record<string, never>': Record<string, never>;
}

/** One event of an element: its detail's type (a key of EventDetails) and what it means. */
interface EventSpec {
  readonly detail: keyof EventDetails;
  readonly description: string;
}

const closed = { detail: 'Record<string, never>', description: 'The dialog closed.' } as const;

/** Every element's events, by tag name. */
export const elementEvents = {
  'iam-console': {
    'iam-navigate': { detail: 'NavigateDetail', description: 'The console went to another route.' },
    'iam-logout': { detail: 'LogoutDetail', description: 'The person signed out.' },
    'iam-error': { detail: 'ConsoleErrorDetail', description: 'A call failed (detail: message).' },
  },
  'iam-login': {
    'iam-login-submit': { detail: 'LoginSubmitDetail', description: 'The form was submitted (detail: username).' },
    'iam-login-success': { detail: 'LoginSuccessDetail', description: 'Signed in; cancelable (`preventDefault()` keeps `redirect` from navigating).' },
    'iam-error': { detail: 'LoginErrorDetail', description: 'The sign-in was refused (detail: message).' },
  },
  'iam-profile-dialog': {
    'iam-profile-saved': { detail: 'ProfileSavedDetail', description: 'The profile was saved (detail: userId).' },
    'iam-close': closed,
  },
  'iam-password-dialog': {
    'iam-password-changed': { detail: 'PasswordChangedDetail', description: 'The password was changed (detail: userId, mode).' },
    'iam-close': closed,
  },
  'iam-provider': {},
} as const satisfies Record<ElementTag, Record<`iam-${string}`, EventSpec>>;

type Fired = typeof elementEvents;

/** The type of every event any element fires. */
export type IamEventType = { [Tag in ElementTag]: keyof Fired[Tag] & string }[ElementTag];

/** The detail of `Type`: the union of its details over the elements that fire it. */
type DetailOf<Type extends IamEventType> = {
  [Tag in ElementTag]: Fired[Tag] extends Record<Type, { detail: infer Name extends keyof EventDetails }> ? EventDetails[Name] : never;
}[ElementTag];

/** Every iam-* event by type, with its `detail`. */
export type IamEventMap = { [Type in IamEventType]: CustomEvent<DetailOf<Type>> };
