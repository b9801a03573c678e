// Reads the sign-in form and checks it with the core's rules: the login schema (login
// messages) and, when the form shows them, the captcha and the next step's code.
import * as v from 'valibot';
import { loginCaptcha, loginForm, secondStepCode } from '../../core/validation/login';

export interface LoginValues {
  username: string;
  password: string;
  captcha?: string;
  code?: string;
}
type LoginFieldName = keyof LoginValues;

/** A `rule.*` message per invalid field. */
export type LoginFieldErrors = Partial<Record<LoginFieldName, string>>;

export interface LoginValidation {
  /** The valid input, or undefined when a field is invalid. */
  values?: LoginValues;
  /** The first message of each invalid field; undefined when all are valid. */
  errors?: LoginFieldErrors;
}

/** Which optional fields the form shows (and therefore requires). */
export interface ShownFields {
  captcha: boolean;
  code: boolean;
}

/** The rule of each field: the login schema's, and the sign-in body's for captcha and code
 *  (required here, because the form only shows them when the server asks for them). */
const fieldRules = {
  username: loginForm.entries.username,
  password: loginForm.entries.password,
  captcha: v.pipe(loginCaptcha, v.nonEmpty('rule.captcha')),
  code: secondStepCode,
} as const;

export function validateLogin(form: HTMLFormElement, shown: ShownFields): LoginValidation {
  const data = new FormData(form);
  const names: LoginFieldName[] = ['username', 'password', ...(shown.captcha ? ['captcha' as const] : []), ...(shown.code ? ['code' as const] : [])];
  const values: LoginValues = { username: '', password: '' };
  const errors: LoginFieldErrors = {};
  for (const name of names) {
    const value = String(data.get(name) ?? '');
    const result = v.safeParse(fieldRules[name], name === 'code' ? value.trim() : value);
    if (result.success) values[name] = result.output;
    else errors[name] = result.issues[0].message;
  }
  return Object.keys(errors).length ? { errors } : { values };
}
