// The consent page an app's sign-in passes through, shared by OpenID Connect (oauthAuthorize) and
// SAML (samlAuthorize): the pending request is read once by its id; a trusted app is allowed
// without asking (the person has just signed in to get here); otherwise the page names the app
// (`children`) with Deny and Allow. The server's answer to either says where the browser goes next
// (back to the OpenID provider, or the page that posts the SAML answer to the app).
import { useEffect, useState, type ReactNode } from 'react';
import { useT } from '../i18n';
import { Icon } from './Icon';
import { StatusPage } from './StatusPage';
import * as statusStyles from './StatusPage.css';
import * as ui from './ui.css';

type Stage<Request> = { kind: 'loading' } | { kind: 'ask'; request: Request } | { kind: 'invalid' } | { kind: 'leaving' };

interface ConsentPageProps<Request> {
  /** The pending request's id from the page's URL ('' when it has none: the page is invalid). */
  id: string;
  title: string;
  /** Said when the request is unknown, used or expired. */
  invalidText: string;
  read: (id: string) => Promise<Request>;
  answer: (id: string, allow: boolean) => Promise<{ redirectURL: string }>;
  allowsAtOnce: (request: Request) => boolean;
  /** A failed answer the page leaves as it is (the HTTP client already moves on), not "invalid". */
  handledElsewhere?: (error: unknown) => boolean;
  allowLabel?: (request: Request) => string;
  children: (request: Request) => ReactNode;
}

export function ConsentPage<Request>({
  id,
  title,
  invalidText,
  read,
  answer,
  allowsAtOnce,
  handledElsewhere,
  allowLabel,
  children,
}: ConsentPageProps<Request>) {
  const t = useT();
  const [stage, setStage] = useState<Stage<Request>>(id ? { kind: 'loading' } : { kind: 'invalid' });

  const respond = async (allow: boolean) => {
    setStage({ kind: 'leaving' });
    try {
      window.location.assign((await answer(id, allow)).redirectURL);
    } catch (error) {
      if (!handledElsewhere?.(error)) setStage({ kind: 'invalid' });
    }
  };

  useEffect(() => {
    if (!id) return;
    let live = true;
    read(id)
      .then((request) => live && (allowsAtOnce(request) ? void respond(true) : setStage({ kind: 'ask', request })))
      .catch(() => live && setStage({ kind: 'invalid' }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the request is read once per id; the other props are module functions
  }, [id]);

  const mark = <Icon name="shield" className={statusStyles.mark} />;
  if (stage.kind !== 'ask') {
    return (
      <StatusPage mark={mark} title={title}>
        <p className={statusStyles.text} role="status">
          {stage.kind === 'invalid' ? invalidText : t('console:loading')}
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
          <button type="button" className={ui.button.secondary} onClick={() => void respond(false)}>
            {t('console:sso.deny')}
          </button>
          <button type="button" className={ui.button.primary} onClick={() => void respond(true)}>
            {allowLabel?.(stage.request) ?? t('console:sso.allow')}
          </button>
        </div>
      }
    >
      {children(stage.request)}
    </StatusPage>
  );
}
