// Public typings of the elements: tag names and the iam-* events with their `detail`.
import type { LoginErrorDetail, LoginSubmitDetail, LoginSuccessDetail } from '../react/login/LoginForm';
import type { IamLoginElement } from './iam-login';

export type { LoginErrorDetail, LoginSubmitDetail, LoginSuccessDetail, IamLoginElement };

declare global {
  interface HTMLElementTagNameMap {
    'iam-login': IamLoginElement;
  }
  interface HTMLElementEventMap {
    'iam-login-submit': CustomEvent<LoginSubmitDetail>;
    /** Cancelable: `preventDefault()` keeps <iam-login> from navigating to its `redirect`. */
    'iam-login-success': CustomEvent<LoginSuccessDetail>;
    'iam-error': CustomEvent<LoginErrorDetail>;
  }
}
