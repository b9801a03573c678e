// <iam-password-dialog>: the reset password dialog on any page. `mode="self"` (default):
// old password, new password, confirmation; success signs the person out. `mode="user"` with
// `user-id` and `username`: an administrator resets that user's password with their own.
// `open` shows it. Events: iam-password-changed (detail { userId, mode }), iam-close.
import { PasswordDialogApp, type PasswordChangedDetail, type PasswordDialogAppProps } from '../../react/dialogs/elementApps';
import { defineElement, emit } from '../define';
import { dialogClosed, shadowReactElement } from '../shadow-element';
import type { PropertiesOf } from '../attributes';
import { passwordDialogAttributes } from './attributes';

const Base = shadowReactElement<PasswordDialogAppProps>(PasswordDialogApp, {
  attributes: passwordDialogAttributes,
  methods: ['onClose', 'onChanged'],
});

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the attribute table types the properties r2wc defines
export interface IamPasswordDialogElement extends PropertiesOf<'iam-password-dialog'> {}

/**
 * The reset password dialog: the person's own (`mode="self"`) or a user's, by an administrator.
 * @tag iam-password-dialog
 * @csspart primary-button - Primary buttons.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class IamPasswordDialogElement extends Base {
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
