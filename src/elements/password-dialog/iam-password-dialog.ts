// <iam-password-dialog>: the reset password dialog on any page. `mode="self"` (default):
// old password, new password, confirmation; success signs the person out. `mode="user"` with
// `user-id` and `username`: an administrator resets that user's password with their own.
// `open` shows it. Events: iam-password-changed (detail { userId, mode }), iam-close.
import { PasswordDialogApp, type PasswordChangedDetail, type PasswordDialogAppProps } from '../../react/dialogs/elementApps';
import { defineElement, emit } from '../define';
import { dialogClosed, shadowReactElement } from '../shadow-element';
import type { IamCommonAttributes, JsxElementProps } from '../types';

const Base = shadowReactElement<PasswordDialogAppProps>(PasswordDialogApp, {
  booleanAttributes: ['open'],
  props: {
    apiBase: 'string',
    locale: 'string',
    authMode: 'string',
    tokenName: 'string',
    open: 'boolean',
    mode: 'string',
    userId: 'string',
    username: 'string',
    onClose: 'method',
    onChanged: 'method',
  },
});

/**
 * The reset password dialog: the person's own (`mode="self"`) or a user's, by an administrator.
 * @tag iam-password-dialog
 * @attr {string} api-base - Base of the API (default `/api`).
 * @attr {'en' | 'zh'} locale - Language (default `en`).
 * @attr {'cookie' | 'token'} auth-mode - `token` for pages on another origin: the token stays in memory.
 * @attr {string} token-name - The header carrying the token in token mode (default `token`).
 * @attr {'dark' | 'light'} theme - Colour theme (default `dark`).
 * @attr {boolean} open - Shows the dialog.
 * @attr {'self' | 'user'} mode - Own password (default) or a user's.
 * @attr {string} user-id - The user whose password is reset (mode `user`).
 * @attr {string} username - Their username, shown in the dialog (mode `user`).
 * @fires {CustomEvent<PasswordChangedDetail>} iam-password-changed - The password was changed (detail: userId, mode).
 * @fires {CustomEvent<Record<string, never>>} iam-close - The dialog closed.
 * @csspart primary-button - Primary buttons.
 */
export class IamPasswordDialogElement extends Base {
  declare apiBase: string | undefined;
  declare locale: string | undefined;
  declare authMode: string | undefined;
  declare tokenName: string | undefined;
  declare open: boolean | undefined;
  declare mode: string | undefined;
  declare userId: string | undefined;
  declare username: string | undefined;

  onClose(): void {
    dialogClosed(this);
  }

  onChanged(detail: PasswordChangedDetail): void {
    emit(this, 'iam-password-changed', detail);
  }
}

export function defineIamPasswordDialog(): void {
  defineElement('iam-password-dialog', IamPasswordDialogElement);
}

/** The attributes of <iam-password-dialog> (for React 19 JSX in a React host). */
export interface IamPasswordDialogAttributes extends IamCommonAttributes {
  open?: boolean | '';
  mode?: 'self' | 'user';
  'user-id'?: string;
  username?: string;
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX typings are a namespace
  namespace JSX {
    interface IntrinsicElements {
      'iam-password-dialog': JsxElementProps<IamPasswordDialogElement, IamPasswordDialogAttributes>;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'iam-password-dialog': IamPasswordDialogElement;
  }
  interface HTMLElementEventMap {
    'iam-password-changed': CustomEvent<PasswordChangedDetail>;
  }
}
