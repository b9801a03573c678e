// saml/authorize (hidden, no ACL check): the SAML sign-in page. An app sent the person here
// (?request=…) through the server's SSO endpoint (server/saml/sign-in.ts) after the route guard made
// sure they are signed in; a trusted app is allowed without asking, otherwise the page names the app
// and Allow / Deny go on to the server's page that posts the answer to the app.
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { answerSamlSignIn, samlSignInRequest, type SamlRequest } from '../../../core/api/saml';
import { useT } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as statusStyles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';

type Stage = { kind: 'loading' } | { kind: 'ask'; request: SamlRequest } | { kind: 'invalid' } | { kind: 'leaving' };

export default function SamlAuthorizeScreen() {
  const t = useT();
  const id = new URLSearchParams(useSearch()).get('request') ?? '';
  const [stage, setStage] = useState<Stage>(id ? { kind: 'loading' } : { kind: 'invalid' });

  const answer = async (allow: boolean) => {
    setStage({ kind: 'leaving' });
    try {
      // The server's page posts the signed answer to the app.
      window.location.assign((await answerSamlSignIn(id, allow)).redirectURL);
    } catch {
      setStage({ kind: 'invalid' });
    }
  };

  useEffect(() => {
    if (!id) return;
    let live = true;
    samlSignInRequest(id)
      .then((request) => live && (request.trusted ? void answer(true) : setStage({ kind: 'ask', request })))
      .catch(() => live && setStage({ kind: 'invalid' }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- answer reads only id
  }, [id]);

  const title = t('route.samlAuthorize');
  const mark = <Icon name="shield" className={statusStyles.mark} />;
  if (stage.kind !== 'ask') {
    return (
      <StatusPage mark={mark} title={title}>
        <p className={statusStyles.text} role="status">
          {stage.kind === 'invalid' ? t('console:saml.invalid') : t('console:loading')}
        </p>
      </StatusPage>
    );
  }
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
            {t('console:sso.allow')}
          </button>
        </div>
      }
    >
      <p className={statusStyles.text}>{t('console:saml.asks', { app: stage.request.appName })}</p>
    </StatusPage>
  );
}
