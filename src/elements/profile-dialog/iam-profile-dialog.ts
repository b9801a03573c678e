// <iam-profile-dialog>: the "edit personal information" dialog of §2.1 on any page (the signed-in
// person's own profile). `open` (attribute or property) shows it; it closes itself on Esc,
// Cancel or after saving. Events: iam-profile-saved (detail { userId }), iam-close.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import { ProfileDialogApp, type ProfileDialogAppProps, type ProfileSavedDetail } from '../../react/dialogs/elementApps';
import { adoptStyles } from '../../react/theme/sheet';
import { forwardAttribute } from '../console/attributes';
import { defineElement, emit, reactElement, upgradeProperties } from '../define';
import type { IamCommonAttributes } from '../types';

const props = ['apiBase', 'locale', 'authMode', 'tokenName', 'open'] as const;
const booleanAttributes = new Set(['open']);

const Base = reactElement<ProfileDialogAppProps>(ProfileDialogApp, {
  shadow: 'open',
  props: { apiBase: 'string', locale: 'string', authMode: 'string', tokenName: 'string', open: 'boolean', onClose: 'method', onSaved: 'method' },
});

export class IamProfileDialogElement extends Base {
  declare apiBase: string | undefined;
  declare locale: string | undefined;
  declare authMode: string | undefined;
  declare tokenName: string | undefined;
  declare open: boolean | undefined;

  constructor() {
    super();
    if (this.shadowRoot) adoptStyles(this.shadowRoot);
  }

  override connectedCallback(): void {
    upgradeProperties(this, props);
    super.connectedCallback();
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    forwardAttribute(Base, this, booleanAttributes, [name, previous, value]);
  }

  onClose(): void {
    this.removeAttribute('open');
    emit(this, 'iam-close', {});
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
      'iam-profile-dialog': DetailedHTMLProps<HTMLAttributes<IamProfileDialogElement>, IamProfileDialogElement> & IamProfileDialogAttributes;
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
