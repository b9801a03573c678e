// saml/authorize (hidden, no ACL check): the SAML sign-in page. An app sent the person here
// (?request=…) through the server's SSO endpoint (server/saml/sign-in.ts) after the route guard made
// sure they are signed in; a trusted app is allowed without asking, otherwise the page names the app
// and Allow / Deny go on to the server's page that posts the answer to the app (the consent steps
// are the OpenID Connect page's, src/react/widgets/ConsentPage.tsx). An app asking for a fresh
// sign-in (ForceAuthn) is answered "Sign in again", as on the OpenID Connect page: the server ends
// this session, and the sign-in page brings the person back here.
import { useSearch } from 'wouter';
import { answerSamlSignIn, samlSignInRequest, type SamlRequest } from '../../../core/api/saml';
import { HttpError } from '../../../core/http';
import { useT } from '../../i18n';
import { ConsentPage } from '../../widgets/ConsentPage';
import * as statusStyles from '../../widgets/StatusPage.css';

const allowsAtOnce = (request: SamlRequest) => request.trusted && !request.signInAgain;
// 401: signed out for a fresh sign-in; the HTTP client is on its way to the sign-in page.
const signedOutForFreshSignIn = (error: unknown) => error instanceof HttpError && error.status === 401;

export default function SamlAuthorizeScreen() {
  const t = useT();
  return (
    <ConsentPage
      id={new URLSearchParams(useSearch()).get('request') ?? ''}
      title={t('route.samlAuthorize')}
      invalidText={t('console:saml.invalid')}
      read={samlSignInRequest}
      answer={answerSamlSignIn}
      allowsAtOnce={allowsAtOnce}
      handledElsewhere={signedOutForFreshSignIn}
      allowLabel={(request) => t(request.signInAgain ? 'console:sso.signInAgain' : 'console:sso.allow')}
    >
      {({ appName, signInAgain }) => (
        <>
          {signInAgain && <p className={statusStyles.text}>{t('console:sso.asksFreshSignIn', { app: appName })}</p>}
          <p className={statusStyles.text}>{t('console:saml.asks', { app: appName })}</p>
        </>
      )}
    </ConsentPage>
  );
}
