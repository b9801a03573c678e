// The PHONE_CAPTCHA login method (loaded lazily): the mobile phone, "Send code" (after the
// captcha when the login settings ask for one; then a cool-down on the button), the code from
// the SMS, and the sign-in. The server answers "Send code" alike for every number, so the form
// says only that a code is on its way if the number has an account. A person with an authenticator
// app (or an administrator who must set one up) then takes that step with the answer's step ticket.
import { useId, useRef, useState, type FormEvent } from 'react';
import { useStore } from '../store';
import * as v from 'valibot';
import { loginWithCode, sendLoginCode } from '../../core/api/auth';
import { newCaptchaKey } from '../../core/api/captcha';
import { useCaptchaImage } from './captchaImage';
import { HttpError } from '../../core/http';
import { $loginCaptcha, finishSignIn, LOGIN_SPECIAL_CODE, type LoginResult } from '../../core/session';
import type { LoginAnswer, LoginErrorData } from '../../core/types';
import { fieldRules, type FieldRulesMode } from '../../core/validation/field-rules';
import { loginCaptcha, loginCode } from '../../core/validation/login';
import { useT, useTRule } from '../i18n';
import { Field } from './Field';
import { CodeField, FailureAlert } from './flowParts';
import SecondStepForm from './SecondStepForm';
import { checkFields, failureText, RESEND_SECONDS, useCooldown, type RuleErrors } from './flowSupport';
import * as styles from './LoginForm.css';

export interface PhoneCodeFormProps {
  /** The login settings ask for the captcha on every attempt. */
  captchaAlways: boolean;
  /** The field rules in force: the phone number follows their phone rule (and is sent as it is stored). */
  rules: FieldRulesMode;
  onSubmitted: (phone: string) => void;
  onSuccess: (result: Extract<LoginResult, { kind: 'success' }>, phone: string) => void;
  onError: (message: string) => void;
}

const captchaRule = { captcha: v.pipe(loginCaptcha, v.nonEmpty('rule.captcha')) };
const codeRule = { code: v.pipe(v.string(), v.trim(), loginCode) };

export default function PhoneCodeForm({ captchaAlways, rules, onSubmitted, onSuccess, onError }: PhoneCodeFormProps) {
  const phoneRule = { phone: fieldRules(rules).mobilePhone };
  const t = useT();
  const tRule = useTRule();
  const formRef = useRef<HTMLFormElement>(null);
  const codeId = useId();
  const serverCaptcha = useStore($loginCaptcha);
  const captchaShown = captchaAlways || serverCaptcha !== undefined;
  const [captchaKey, setCaptchaKey] = useState(newCaptchaKey);
  const captchaSrc = useCaptchaImage(captchaShown, captchaKey);
  const [errors, setErrors] = useState<RuleErrors>({});
  const [failure, setFailure] = useState<string>();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [left, startCooldown] = useCooldown(RESEND_SECONDS);
  /** The phone code passed and the answer asks a second step (with its step ticket). */
  const [pending, setPending] = useState<{ phone: string; answer: LoginAnswer & { stepTicket: string } }>();
  const message = (name: string) => (errors[name] ? tRule(errors[name]) : undefined);

  const sendCode = async () => {
    const form = formRef.current;
    if (!form) return;
    const { values, errors: found } = checkFields<'phone' | 'captcha'>(form, { ...phoneRule, captcha: captchaShown ? captchaRule.captcha : v.string() });
    setErrors(found);
    if (!values) return;
    setFailure(undefined);
    setBusy(true);
    try {
      await sendLoginCode(values.phone, captchaShown ? { captcha: values.captcha, captchaKey } : undefined);
      setSent(true);
      startCooldown();
      form.querySelector<HTMLInputElement>(`[id="${codeId}"]`)?.focus();
    } catch (error) {
      const data = error instanceof HttpError ? ((error.data ?? {}) as LoginErrorData) : undefined;
      if (data?.captchaImageUrl) $loginCaptcha.set(data.captchaImageUrl);
      setFailure(Number(data?.code) === LOGIN_SPECIAL_CODE && !captchaShown ? t('login:captchaRequired') : failureText(error));
    } finally {
      setBusy(false);
      // A captcha is used up by every attempt: show a new one.
      if (captchaShown) {
        setCaptchaKey(newCaptchaKey());
        const captchaInput = form.elements.namedItem('captcha');
        if (captchaInput instanceof HTMLInputElement) captchaInput.value = '';
      }
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { values, errors: found } = checkFields(event.currentTarget, { ...phoneRule, ...codeRule });
    setErrors(found);
    if (!values) return;
    setFailure(undefined);
    setBusy(true);
    onSubmitted(values.phone);
    try {
      const answer = await loginWithCode(values.phone, values.code);
      if (answer.stepTicket) setPending({ phone: values.phone, answer: { ...answer, stepTicket: answer.stepTicket } });
      else onSuccess(await finishSignIn(answer), values.phone);
    } catch (error) {
      const text = failureText(error);
      setFailure(text);
      onError(text);
    } finally {
      setBusy(false);
    }
  };

  if (pending) {
    return (
      <SecondStepForm
        answer={pending.answer}
        onSuccess={(result) => onSuccess(result, pending.phone)}
        onError={onError}
        onCancel={() => setPending(undefined)}
      />
    );
  }

  return (
    <form ref={formRef} className={styles.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      <Field
        label={t('login:phone')}
        error={message('phone')}
        input={{ name: 'phone', type: 'tel', inputMode: 'tel', autoComplete: 'tel', placeholder: t('login:phonePlaceholder') }}
      />
      {captchaShown && (
        <Field
          label={t('login:captcha')}
          error={message('captcha')}
          input={{ name: 'captcha', type: 'text', autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, placeholder: t('login:captchaPlaceholder') }}
          addon={
            <button type="button" className={styles.captchaButton} aria-label={t('login:newCaptcha')} onClick={() => setCaptchaKey(newCaptchaKey())}>
              <img className={styles.captchaImage} src={captchaSrc} alt={t('login:captchaImage')} />
            </button>
          }
        />
      )}
      <CodeField id={codeId} error={message('code')} placeholder={t('login:codePlaceholder')} busy={busy} left={left} onSend={() => void sendCode()} />
      {sent && (
        <p role="status" className={styles.hint}>
          {t('login:codeSentSms')}
        </p>
      )}
      <FailureAlert text={failure} />
      <button type="submit" className={styles.submit} disabled={busy}>
        {t(busy ? 'login:submitting' : 'login:submit')}
      </button>
    </form>
  );
}
