// oauth/authorize (hidden, no ACL check): the consent page of our OpenID Connect provider. An app
// sent the person here (?uid=…) after the route guard made sure they are signed in; the page says
// which app asks for what, and Allow / Deny go back to the provider, which returns to the app. A
// trusted app is allowed without asking (the consent steps, shared with the SAML sign-in page, are
// src/react/widgets/ConsentPage.tsx). An app asking for a fresh sign-in (prompt=login, max_age) is
// answered "Sign in again": the server ends this session, and the sign-in page brings the person
// back here.
import { useSearch } from 'wouter';
import { answerSsoInteraction, ssoInteraction, type SsoInteraction } from '../../../core/api/sso';
import { HttpError } from '../../../core/http';
import { useT } from '../../i18n';
import { ConsentPage } from '../../widgets/ConsentPage';
import * as statusStyles from '../../widgets/StatusPage.css';

/** The scopes the consent page explains; another scope is shown by its name. */
const KNOWN_SCOPES = ['openid', 'profile', 'email', 'phone', 'offline_access', 'roles', 'tenant'] as const;

const allowsAtOnce = (request: SsoInteraction) => request.trusted && !request.signInAgain;
// 401: signed out for a fresh sign-in; the HTTP client is on its way to the sign-in page.
const signedOutForFreshSignIn = (error: unknown) => error instanceof HttpError && error.status === 401;

export default function OauthAuthorizeScreen() {
  const t = useT();
  const scopeText = (scope: string) => {
    const known = KNOWN_SCOPES.find((value) => value === scope);
    return known ? t(`console:sso.scope.${known}`) : scope;
  };
  return (
    <ConsentPage
      id={new URLSearchParams(useSearch()).get('uid') ?? ''}
      title={t('route.authorize')}
      invalidText={t('console:sso.invalid')}
      read={ssoInteraction}
      answer={answerSsoInteraction}
      allowsAtOnce={allowsAtOnce}
      handledElsewhere={signedOutForFreshSignIn}
      allowLabel={(request) => t(request.signInAgain ? 'console:sso.signInAgain' : 'console:sso.allow')}
    >
      {({ clientName, scopes, signInAgain }) => (
        <>
          {signInAgain && <p className={statusStyles.text}>{t('console:sso.asksFreshSignIn', { app: clientName })}</p>}
          <p className={statusStyles.text}>{t('console:sso.asks', { app: clientName })}</p>
          <ul aria-label={t('console:sso.scopes')}>
            {scopes.map((scope) => (
              <li key={scope}>{scopeText(scope)}</li>
            ))}
          </ul>
        </>
      )}
    </ConsentPage>
  );
}
