// Reads the sign-in form and checks it with the core's login schema (§5 login messages).
import * as v from 'valibot';
import { loginForm } from '../../core/validation';

/** A `rule.*` message per invalid field. */
export interface LoginFieldErrors {
  username?: string;
  password?: string;
}

export interface LoginValidation {
  /** The valid input, or undefined when a field is invalid. */
  values?: { username: string; password: string };
  /** The first message of each invalid field; undefined when all are valid. */
  errors?: LoginFieldErrors;
}

export function validateLogin(form: HTMLFormElement): LoginValidation {
  const data = new FormData(form);
  const input = { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
  const result = v.safeParse(loginForm, input);
  if (result.success) return { values: input };
  const nested = v.flatten<typeof loginForm>(result.issues).nested ?? {};
  return { errors: { username: nested.username?.[0], password: nested.password?.[0] } };
}
