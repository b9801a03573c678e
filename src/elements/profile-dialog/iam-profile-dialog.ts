// <iam-profile-dialog>: the "edit personal information" dialog on any page (the signed-in
// person's own profile). `open` (attribute or property) shows it; it closes itself on Esc,
// Cancel or after saving. Events: iam-profile-saved (detail { userId }), iam-close.
import { ProfileDialogApp, type ProfileDialogAppProps, type ProfileSavedDetail } from '../../react/dialogs/elementApps';
import { defineElement, emit } from '../define';
import { dialogClosed, shadowReactElement } from '../shadow-element';
import type { IamCommonAttributes, JsxElementProps } from '../types';

const Base = shadowReactElement<ProfileDialogAppProps>(ProfileDialogApp, {
  booleanAttributes: ['open'],
  props: { apiBase: 'string', locale: 'string', authMode: 'string', tokenName: 'string', open: 'boolean', onClose: 'method', onSaved: 'method' },
});

/**
 * The "edit personal information" dialog of the signed-in person.
 * @tag iam-profile-dialog
 * @attr {string} api-base - Base of the API (default `/api`).
 * @attr {'en' | 'zh'} locale - Language (default `en`).
 * @attr {'cookie' | 'token'} auth-mode - `token` for pages on another origin: the token stays in memory.
 * @attr {string} token-name - The header carrying the token in token mode (default `token`).
 * @attr {'dark' | 'light'} theme - Colour theme (default `dark`).
 * @attr {boolean} open - Shows the dialog.
 * @fires {CustomEvent<ProfileSavedDetail>} iam-profile-saved - The profile was saved (detail: userId).
 * @fires {CustomEvent<Record<string, never>>} iam-close - The dialog closed.
 * @csspart primary-button - Primary buttons.
 */
export class IamProfileDialogElement extends Base {
  declare apiBase: string | undefined;
  declare locale: string | undefined;
  declare authMode: string | undefined;
  declare tokenName: string | undefined;
  declare open: boolean | undefined;

  onClose(): void {
    dialogClosed(this);
  }

  onSaved(detail: ProfileSavedDetail): void {
    emit(this, 'iam-profile-saved', detail);
  }
}

export function defineIamProfileDialog(): void {
  defineElement('iam-profile-dialog', IamProfileDialogElement);
}

/** The attributes of <iam-profile-dialog> (for React 19 JSX in a React host). */
export interface IamProfileDialogAttributes extends IamCommonAttributes {
  open?: boolean | '';
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX typings are a namespace
  namespace JSX {
    interface IntrinsicElements {
      'iam-profile-dialog': JsxElementProps<IamProfileDialogElement, IamProfileDialogAttributes>;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'iam-profile-dialog': IamProfileDialogElement;
  }
  interface HTMLElementEventMap {
    'iam-profile-saved': CustomEvent<ProfileSavedDetail>;
    'iam-close': CustomEvent<Record<string, never>>;
  }
}
