// saml/authorize (hidden, no ACL check): the SAML sign-in page. An app sent the person here
// (?request=…) through the server's SSO endpoint (server/saml/sign-in.ts) after the route guard made
// sure they are signed in; a trusted app is allowed without asking, otherwise the page names the app
// and Allow / Deny go on to the server's page that posts the answer to the app (the consent steps
// are the OpenID Connect page's, src/react/widgets/ConsentPage.tsx).
import { useSearch } from 'wouter';
import { answerSamlSignIn, samlSignInRequest, type SamlRequest } from '../../../core/api/saml';
import { useT } from '../../i18n';
import { ConsentPage } from '../../widgets/ConsentPage';
import * as statusStyles from '../../widgets/StatusPage.css';

const allowsAtOnce = (request: SamlRequest) => request.trusted;

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
    >
      {(request) => <p className={statusStyles.text}>{t('console:saml.asks', { app: request.appName })}</p>}
    </ConsentPage>
  );
}
