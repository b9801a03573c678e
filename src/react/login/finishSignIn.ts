// Ends a sign-in that did not go through the core session's login() (the code of the
// PHONE_CAPTCHA method, the change of an expired password): keeps the token in token mode and
// reads the session, like the session's own sign-in does after a successful answer.
import { setToken } from '../../core/http';
import { t } from '../../core/i18n';
import { $loginCaptcha, reload, type LoginResult } from '../../core/session';
import type { LoginAnswer } from '../../core/types';

export async function finishSignIn(answer: LoginAnswer): Promise<Extract<LoginResult, { kind: 'success' }>> {
  if (!answer.loginSuccess) throw new Error(answer.message || t('message.userAuthInfoUnavailable'));
  $loginCaptcha.set(undefined);
  if (answer.token) setToken(answer.token);
  return { kind: 'success', redirectURL: answer.redirectURL, session: await reload() };
}
