// The new password and its confirmation, for the forms that set one on the sign-in page (forgot
// password, expired password). Checked before the transform: the rule, then the login
// settings' policy (its messages are in the `settings` namespace), then the confirmation.
import * as v from 'valibot';
import { passwordRule, type PasswordPolicy } from '../../core/schemas/settings';
import { rules } from '../../core/validation';
import { useT, useTRule } from '../i18n';
import { Field } from './Field';
import type { RuleErrors } from './flowSupport';

export const NEW_PASSWORD = 'newPassword';
const CONFIRM_PASSWORD = 'confirmPassword';

/** The rules of both inputs, for `checkFields`; the confirmation must equal the new password. */
export function newPasswordRules(policy: PasswordPolicy | undefined, form: HTMLFormElement) {
  const typed = String(new FormData(form).get(NEW_PASSWORD) ?? '');
  return {
    [NEW_PASSWORD]: policy ? passwordRule(policy) : rules.newPassword,
    [CONFIRM_PASSWORD]: v.pipe(
      v.string(),
      v.nonEmpty('rule.confirmPasswordRequired'),
      v.check((value) => value === typed, 'rule.confirmPasswordMismatch'),
    ),
  };
}

export function NewPasswordFields({ errors }: { errors: RuleErrors }) {
  const t = useT();
  const tRule = useTRule();
  const message = (name: string) => (errors[name] ? tRule(errors[name]) : undefined);
  return (
    <>
      <Field label={t('login:newPassword')} error={message(NEW_PASSWORD)} input={{ name: NEW_PASSWORD, type: 'password', autoComplete: 'new-password' }} />
      <Field
        label={t('login:confirmPassword')}
        error={message(CONFIRM_PASSWORD)}
        input={{ name: CONFIRM_PASSWORD, type: 'password', autoComplete: 'new-password' }}
      />
    </>
  );
}
