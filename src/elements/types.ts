// Public typings of the elements: tag names, the iam-* events with their `detail` (from the events
// table of ./events.ts), and the attributes for React 19 JSX (`<iam-login api-base="/api" />` in a
// React host, from the attribute table of ./attributes.ts). Every type docs/elements.md names is exported here.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { LoginErrorDetail, LoginSubmitDetail, LoginSuccessDetail } from '../react/login/LoginForm';
import type { ConsoleErrorDetail, LogoutDetail, NavigateDetail } from '../react/app/context';
import type { PasswordChangedDetail, ProfileSavedDetail } from '../react/dialogs/elementApps';
import type { AttributesOf, ElementTag, PropertiesOf } from './attributes';
import type { IamEventMap, IamEventType } from './events';
import type { IamConsoleElement } from './console/iam-console';
import type { IamLoginElement } from './iam-login';
import type { IamPasswordDialogElement } from './password-dialog/iam-password-dialog';
import type { IamProfileDialogElement } from './profile-dialog/iam-profile-dialog';
import type { IamProviderElement } from './provider/iam-provider';

export type {
  AttributesOf,
  ConsoleErrorDetail,
  ElementTag,
  IamConsoleElement,
  IamEventMap,
  IamEventType,
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
  PropertiesOf,
};

export type IamLoginAttributes = AttributesOf<'iam-login'>;
export type IamConsoleAttributes = AttributesOf<'iam-console'>;
export type IamProfileDialogAttributes = AttributesOf<'iam-profile-dialog'>;
export type IamPasswordDialogAttributes = AttributesOf<'iam-password-dialog'>;
export type IamProviderAttributes = AttributesOf<'iam-provider'>;

/** Every iam-* element class by tag name. */
export interface IamElementTagNameMap {
  'iam-console': IamConsoleElement;
  'iam-login': IamLoginElement;
  'iam-password-dialog': IamPasswordDialogElement;
  'iam-profile-dialog': IamProfileDialogElement;
  'iam-provider': IamProviderElement;
}

/** An iam-* element's props in React 19 JSX: the HTML attributes plus its own. */
export type JsxElementProps<Element extends HTMLElement, Attributes> = DetailedHTMLProps<HTMLAttributes<Element>, Element> & Attributes;

/** The JSX props of every iam-* element, from the attribute table. */
export type IamIntrinsicElements = { [Tag in ElementTag]: JsxElementProps<IamElementTagNameMap[Tag], AttributesOf<Tag>> };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds the iam-* tags to the DOM's map
  interface HTMLElementTagNameMap extends IamElementTagNameMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds the iam-* events to the DOM's map
  interface HTMLElementEventMap extends IamEventMap {}
  // The events bubble out of shadow roots (`composed`) to the document and the window.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds the iam-* events to the DOM's map
  interface DocumentEventMap extends IamEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds the iam-* events to the DOM's map
  interface WindowEventMap extends IamEventMap {}
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX typings are a namespace
  namespace JSX {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds the iam-* tags to React's JSX
    interface IntrinsicElements extends IamIntrinsicElements {}
  }
}

/** The properties of the element classes, for hosts that set them directly. */
export type IamElementProperties = { [Tag in ElementTag]: PropertiesOf<Tag> };
