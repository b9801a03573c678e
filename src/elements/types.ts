// Public typings of the elements: tag names, the iam-* events with their `detail`, and the
// attributes for React 19 JSX (`<iam-login api-base="/api" />` in a React host).
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { LoginErrorDetail, LoginSubmitDetail, LoginSuccessDetail } from '../react/login/LoginForm';
import type { IamLoginElement } from './iam-login';
import type { IamProviderElement } from './provider/iam-provider';

export type { LoginErrorDetail, LoginSubmitDetail, LoginSuccessDetail, IamLoginElement, IamProviderElement };

/** The attributes every iam-* element takes. */
export interface IamCommonAttributes {
  'api-base'?: string;
  locale?: 'en' | 'zh';
  theme?: 'dark' | 'light';
  'auth-mode'?: 'cookie' | 'token';
  'token-name'?: string;
}

export interface IamLoginAttributes extends IamCommonAttributes {
  /** Where to go after a successful sign-in (same origin only). */
  redirect?: string;
}

/** The attributes of <iam-provider>: passed down to every iam-* element inside it. */
export type IamProviderAttributes = Pick<IamCommonAttributes, 'api-base' | 'locale' | 'theme'>;

declare global {
  interface HTMLElementTagNameMap {
    'iam-login': IamLoginElement;
    'iam-provider': IamProviderElement;
  }
  interface HTMLElementEventMap {
    'iam-login-submit': CustomEvent<LoginSubmitDetail>;
    /** Cancelable: `preventDefault()` keeps <iam-login> from navigating to its `redirect`. */
    'iam-login-success': CustomEvent<LoginSuccessDetail>;
    'iam-error': CustomEvent<LoginErrorDetail>;
  }
}

/** An iam-* element's props in React 19 JSX: the HTML attributes plus its own. */
export type JsxElementProps<Element extends HTMLElement, Attributes> = DetailedHTMLProps<HTMLAttributes<Element>, Element> & Attributes;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX typings are a namespace
  namespace JSX {
    interface IntrinsicElements {
      'iam-login': JsxElementProps<IamLoginElement, IamLoginAttributes>;
      'iam-provider': JsxElementProps<IamProviderElement, IamProviderAttributes>;
    }
  }
}
