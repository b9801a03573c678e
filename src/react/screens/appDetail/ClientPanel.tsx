// The app as an OpenID Connect client of our provider: client id, issuer, redirect URIs (the app's
// callback URLs), its type (confidential or public) and, confidential, its client secret, generated
// or rotated here and shown once in a dialog; once it is a client (a secret, or public), its
// switches, post-logout redirect URIs and back-channel logout URI.
import { lazy, Suspense, useState } from 'react';
import type { App } from '../../../core/api/apps';
import { oidcClientStatus, rotateOidcClientSecret } from '../../../core/api/sso';
import { ClientType } from '../../../core/schemas/sso';
import { formatDate } from '../../../core/format';
import { useT } from '../../i18n';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from './ClientPanel.css';
import { ClientUrlsForm, backchannelLogoutUri, postLogoutUris } from './ClientUrlsForm';
import { ClientSwitches } from './ClientSwitches';
import { ClientTypeField } from './ClientTypeField';

const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));
const ClientSecretDialog = lazy(() => import('./ClientSecretDialog'));

type Open = { kind: 'confirmRotate' } | { kind: 'secret'; secret: string };

export function ClientPanel({ app }: { app: App }) {
  const t = useT();
  // The redirect URIs follow the callback URL: read again after the basics are saved.
  const status = useResource(() => oidcClientStatus(app.id), [app.id, app.version]);
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);

  const rotate = async () => {
    let secret: string;
    try {
      secret = (await rotateOidcClientSecret(app.id)).clientSecret;
    } catch {
      return; // shown by the HTTP client
    }
    status.reload();
    setOpen({ kind: 'secret', secret });
  };

  const client = status.data;
  const isPublic = client?.clientType === ClientType.Public;
  const isClient = isPublic || client?.hasSecret;
  return (
    <section className={styles.panel} aria-labelledby="iam-app-client">
      <h3 id="iam-app-client" className={styles.title}>
        {t('admin:clientSecret.title')}
      </h3>
      {!client ? (
        <p className={ui.empty}>{t(status.failed ? 'console:unavailable' : 'console:loading')}</p>
      ) : (
        <>
          <dl className={styles.details}>
            <dt className={ui.muted}>{t('admin:clientSecret.clientId')}</dt>
            <dd className={styles.value}>
              <code>{client.clientId}</code>
            </dd>
            <dt className={ui.muted}>{t('admin:clientSecret.issuer')}</dt>
            <dd className={styles.value}>
              <code>{client.issuer}</code>
            </dd>
            <dt className={ui.muted}>{t('admin:clientSecret.redirectUris')}</dt>
            <dd className={styles.value}>
              {client.redirectUris.length ? (
                <ul className={styles.uris}>
                  {client.redirectUris.map((uri) => (
                    <li key={uri}>
                      <code>{uri}</code>
                    </li>
                  ))}
                </ul>
              ) : (
                t('admin:clientSecret.noRedirectUris')
              )}
            </dd>
            <dt className={ui.muted}>{t('admin:clientSecret.secret')}</dt>
            <dd className={styles.value}>
              {isPublic
                ? t('admin:clientSecret.publicSecret')
                : client.hasSecret && client.rotatedAt !== null
                  ? t('admin:clientSecret.hasSecret', { time: formatDate(client.rotatedAt) })
                  : t('admin:clientSecret.noSecret')}
            </dd>
          </dl>
          <ClientTypeField appId={app.id} client={client} onSaved={() => status.reload()} />
          {!isPublic && (
            <div className={ui.actions}>
              {client.hasSecret ? (
                <button type="button" className={ui.button.secondary} onClick={() => setOpen({ kind: 'confirmRotate' })}>
                  {t('admin:clientSecret.rotate')}
                </button>
              ) : (
                <button type="button" className={ui.button.primary} onClick={() => void rotate()}>
                  {t('admin:clientSecret.generate')}
                </button>
              )}
            </div>
          )}
          {isClient && <ClientSwitches appId={app.id} client={client} onSaved={() => status.reload()} />}
          {isClient && (
            <ClientUrlsForm
              key={client.postLogoutRedirectUris.join('\n')}
              appId={app.id}
              setting={postLogoutUris}
              saved={client.postLogoutRedirectUris.join('\n')}
              onSaved={() => status.reload()}
            />
          )}
          {isClient && (
            <ClientUrlsForm
              key={client.backchannelLogoutUri ?? ''}
              appId={app.id}
              setting={backchannelLogoutUri}
              saved={client.backchannelLogoutUri ?? ''}
              onSaved={() => status.reload()}
            />
          )}
        </>
      )}
      <Suspense fallback={null}>
        {open?.kind === 'confirmRotate' && (
          <ConfirmDialog
            open
            // The confirm dialog closes after rotating, when the secret dialog has taken its place.
            onOpenChange={(still) => !still && setOpen((current) => (current?.kind === 'confirmRotate' ? undefined : current))}
            title={t('admin:clientSecret.rotateTitle')}
            question={t('admin:clientSecret.rotateQuestion')}
            confirmLabel={t('admin:clientSecret.rotate')}
            onConfirm={rotate}
          />
        )}
        {open?.kind === 'secret' && <ClientSecretDialog secret={open.secret} onClose={close} />}
      </Suspense>
    </section>
  );
}
