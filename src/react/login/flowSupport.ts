// Shared by the lazily loaded sign-in flows (phone code, forgot password, expired password, the
// second steps): one rule check per named input, the server's field messages, a failure's text, a
// step form's sending, the cool-down of a "Send code" button, and the submission of a next step's code.
import { useEffect, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { loginStep } from '../../core/api/login-step';
import { HttpError } from '../../core/http';
import { finishSignIn, submitNextStep, type LoginResult } from '../../core/session';
import type { FieldErrors } from '../../core/types';

/** A `rule.*` message per field name. */
export type RuleErrors = Partial<Record<string, string>>;

/** Checks the named inputs of `form` with their rules: the parsed values, or the messages. */
export function checkFields<N extends string>(
  form: HTMLFormElement,
  fieldRules: Record<N, v.GenericSchema<string, string>>,
): { values?: Record<N, string>; errors: RuleErrors } {
  const data = new FormData(form);
  const values = {} as Record<N, string>;
  const errors: RuleErrors = {};
  for (const name of Object.keys(fieldRules) as N[]) {
    const result = v.safeParse(fieldRules[name], String(data.get(name) ?? ''));
    if (result.success) values[name] = result.output;
    else errors[name] = result.issues[0].message;
  }
  if (Object.keys(errors).length) {
    form.querySelector<HTMLInputElement>(`[name="${Object.keys(errors)[0]}"]`)?.focus();
    return { errors };
  }
  return { values, errors };
}

/** The fields a 400 answer names, each with its `rule.*` key (renamed by `names` when given). */
export function serverFieldErrors(error: unknown, names: Record<string, string> = {}): RuleErrors | undefined {
  if (!(error instanceof HttpError) || error.status !== 400) return undefined;
  const fields = (error.data as Partial<FieldErrors> | null)?.fields;
  if (!fields?.length) return undefined;
  return Object.fromEntries(fields.map(({ field, rule }) => [names[field] ?? field, rule]));
}

export const failureText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A step form's state (StepForm in flowParts.tsx): its fields' messages, its failure, busy while it
 *  sends. `submit` checks the fields with `rules` and sends their values; a failure is shown under
 *  the form and reported to `onError`, or, when `failureOf` answers field messages (a 400 naming
 *  fields), shown at those fields. */
export function useStepForm(onError?: (message: string) => void) {
  const [errors, setErrors] = useState<RuleErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  /** Shows a failure under the form and reports it to `onError` (a sending's, or a passkey's). */
  const report = (text: string) => {
    setFailure(text);
    onError?.(text);
  };
  const submit =
    <N extends string>(
      rules: (form: HTMLFormElement) => Record<N, v.GenericSchema<string, string>>,
      send: (values: Record<N, string>) => Promise<void>,
      failureOf: (error: unknown) => string | RuleErrors = failureText,
    ) =>
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      const { values, errors: found } = checkFields(form, rules(form));
      setErrors(found);
      if (!values) return;
      setFailure(undefined);
      setBusy(true);
      try {
        await send(values);
      } catch (error) {
        const failed = failureOf(error);
        if (typeof failed !== 'string') return setErrors(failed);
        report(failed);
      } finally {
        setBusy(false);
      }
    };
  return { errors, failure, busy, submit, report };
}

/** The seconds before a new code may be asked (the server sends one a minute); `start` begins. */
export function useCooldown(seconds: number): [left: number, start: () => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, () => setLeft(seconds)];
}

/** The server sends at most one code a minute per person and purpose (server/auth/codes.ts). */
export const RESEND_SECONDS = 60;

/** Submits a next step's code: with the step ticket of a first factor that cannot be sent again
 *  (a phone code, a third-party provider), else as the password form's pending step. */
export async function submitStepCode(stepTicket: string | undefined, code: string, language?: string): Promise<LoginResult> {
  return stepTicket ? finishSignIn(await loginStep(stepTicket, { code }, language)) : submitNextStep({ code, language });
}
