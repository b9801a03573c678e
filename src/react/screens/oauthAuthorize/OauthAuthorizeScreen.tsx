// oauth/authorize (hidden, no ACL check): the consent page of our OpenID Connect provider. An app
// sent the person here (?uid=…) after the route guard made sure they are signed in; the page says
// which app asks for what, and Allow / Deny go back to the provider, which returns to the app. A
// trusted app is allowed without asking. An app asking for a fresh sign-in (prompt=login, max_age)
// is answered "Sign in again": the server ends this session, and the sign-in page brings the
// person back here.
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { answerSsoInteraction, ssoInteraction, type SsoInteraction } from '../../../core/api/sso';
import { HttpError } from '../../../core/http';
import { useT } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as statusStyles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';

type Stage = { kind: 'loading' } | { kind: 'ask'; request: SsoInteraction } | { kind: 'invalid' } | { kind: 'leaving' };

/** The scopes the consent page explains; another scope is shown by its name. */
const KNOWN_SCOPES = ['openid', 'profile', 'email', 'phone', 'offline_access', 'roles', 'tenant'] as const;

export default function OauthAuthorizeScreen() {
  const t = useT();
  const uid = new URLSearchParams(useSearch()).get('uid') ?? '';
  const [stage, setStage] = useState<Stage>(uid ? { kind: 'loading' } : { kind: 'invalid' });

  const answer = async (allow: boolean) => {
    setStage({ kind: 'leaving' });
    try {
      const { redirectURL } = await answerSsoInteraction(uid, allow);
      // Back to the provider (another part of this server), which redirects to the app.
      window.location.assign(redirectURL);
    } catch (error) {
      // 401: signed out for a fresh sign-in; the HTTP client is on its way to the sign-in page.
      if (!(error instanceof HttpError && error.status === 401)) setStage({ kind: 'invalid' });
    }
  };

  useEffect(() => {
    if (!uid) return;
    let live = true;
    ssoInteraction(uid)
      // A trusted app is allowed without asking (the person has just signed in to get here).
      .then((request) => live && (request.trusted && !request.signInAgain ? void answer(true) : setStage({ kind: 'ask', request })))
      .catch(() => live && setStage({ kind: 'invalid' }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- answer reads only uid
  }, [uid]);

  const title = t('route.authorize');
  const mark = <Icon name="shield" className={statusStyles.mark} />;
  if (stage.kind !== 'ask') {
    const text = stage.kind === 'invalid' ? t('console:sso.invalid') : t('console:loading');
    return (
      <StatusPage mark={mark} title={title}>
        <p className={statusStyles.text} role="status">
          {text}
        </p>
      </StatusPage>
    );
  }

  const { clientName, scopes, signInAgain } = stage.request;
  const scopeText = (scope: string) => {
    const known = KNOWN_SCOPES.find((value) => value === scope);
    return known ? t(`console:sso.scope.${known}`) : scope;
  };
  return (
    <StatusPage
      mark={mark}
      title={title}
      actions={
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={() => void answer(false)}>
            {t('console:sso.deny')}
          </button>
          <button type="button" className={ui.button.primary} onClick={() => void answer(true)}>
            {t(signInAgain ? 'console:sso.signInAgain' : 'console:sso.allow')}
          </button>
        </div>
      }
    >
      {signInAgain && <p className={statusStyles.text}>{t('console:sso.asksFreshSignIn', { app: clientName })}</p>}
      <p className={statusStyles.text}>{t('console:sso.asks', { app: clientName })}</p>
      <ul aria-label={t('console:sso.scopes')}>
        {scopes.map((scope) => (
          <li key={scope}>{scopeText(scope)}</li>
        ))}
      </ul>
    </StatusPage>
  );
}
