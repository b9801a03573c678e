// <iam-profile-dialog>: the "edit personal information" dialog on any page (the signed-in
// person's own profile). `open` (attribute or property) shows it; it closes itself on Esc,
// Cancel or after saving. Events: iam-profile-saved (detail { userId }), iam-close.
import { ProfileDialogApp, type ProfileDialogAppProps, type ProfileSavedDetail } from '../../react/dialogs/elementApps';
import { defineElement, emit } from '../define';
import { dialogClosed, shadowReactElement } from '../shadow-element';
import type { PropertiesOf } from '../attributes';
import { profileDialogAttributes } from './attributes';

const Base = shadowReactElement<ProfileDialogAppProps>(ProfileDialogApp, {
  attributes: profileDialogAttributes,
  methods: ['onClose', 'onSaved'],
});

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the attribute table types the properties r2wc defines
export interface IamProfileDialogElement extends PropertiesOf<'iam-profile-dialog'> {}

/**
 * The "edit personal information" dialog of the signed-in person.
 * @tag iam-profile-dialog
 * @csspart primary-button - Primary buttons.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class IamProfileDialogElement extends Base {
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
