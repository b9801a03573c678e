// The sign-in flows beside the password form, loaded lazily in one chunk (outside the sign-in
// entry's size budget): the phone-and-code form of the PHONE_CAPTCHA login method, "Forgot
// password?", the new password an expired one asks for and an administrator's authenticator set-up.
import type { ReactNode } from 'react';
import type { PublicLoginSettings } from '../../core/schemas/settings';
import type { LoginResult } from '../../core/session';
import { useT } from '../i18n';
import ExpiredPasswordForm from './ExpiredPasswordForm';
import ForgotPasswordForm from './ForgotPasswordForm';
import type { LoginErrorDetail, LoginSubmitDetail, LoginSuccessDetail } from './LoginForm';
import PhoneCodeForm from './PhoneCodeForm';
import TotpSetupForm from './TotpSetupForm';
import type { TotpEnrolment } from '../../core/api/totp';
import { FieldRules } from '../../core/validation/field-rules-modes';

export type Flow =
  | { kind: 'phone' }
  | { kind: 'forgot' }
  | { kind: 'expired'; username: string; password: string; stepTicket: string }
  | { kind: 'totpSetup'; username: string; enrolment: TotpEnrolment };

export interface SignInFlowProps {
  flow: Flow;
  /** The sign-in form's title and subtitle (the phone form is the sign-in form). */
  header: ReactNode;
  /** The public login settings (null: unreadable; the rule alone then). */
  settings: PublicLoginSettings | null;
  onSubmitted?: (detail: LoginSubmitDetail) => void;
  onSuccess: (detail: LoginSuccessDetail) => void;
  onError?: (detail: LoginErrorDetail) => void;
  /** Back to the password form, with a message to show over it. */
  onBack: (notice?: string) => void;
}

export default function SignInFlow({ flow, header, settings, onSubmitted, onSuccess, onError, onBack }: SignInFlowProps) {
  const t = useT();
  const policy = settings?.passwordPolicy;
  const rules = settings?.fieldRules ?? FieldRules.Default;
  const succeeded = (username: string) => (result: Extract<LoginResult, { kind: 'success' }>) => onSuccess({ username, redirectURL: result.redirectURL });
  const failed = (message: string) => onError?.({ message });
  switch (flow.kind) {
    case 'forgot':
      return <ForgotPasswordForm policy={policy} rules={rules} onDone={(changed) => onBack(changed ? t('login:forgot.done') : undefined)} />;
    case 'expired':
      return (
        <ExpiredPasswordForm
          username={flow.username}
          password={flow.password}
          stepTicket={flow.stepTicket}
          policy={policy}
          onSuccess={succeeded(flow.username)}
          onError={failed}
          onCancel={() => onBack()}
        />
      );
    case 'totpSetup':
      return <TotpSetupForm enrolment={flow.enrolment} onSuccess={succeeded(flow.username)} onError={failed} onCancel={() => onBack()} />;
    case 'phone':
      return (
        <>
          {header}
          <PhoneCodeForm
            captchaAlways={settings?.captchaEnabled === true}
            rules={rules}
            onSubmitted={(phone) => onSubmitted?.({ username: phone })}
            onSuccess={(result, phone) => succeeded(phone)(result)}
            onError={failed}
          />
        </>
      );
  }
}
