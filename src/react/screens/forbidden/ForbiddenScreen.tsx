// /403: 'You do not have permissions to access this page', 'Please contact your
// administrator'. The redirect query names the refused page; "try again" goes back there (it
// helps once an administrator has granted the permission).
import { Link, useSearch } from 'wouter';
import { isSafeRedirect } from '../../../core/routes';
import { useT } from '../../i18n';
import { StatusPage } from '../../widgets/StatusPage';
import * as styles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';

export default function ForbiddenScreen() {
  const t = useT();
  const redirect = new URLSearchParams(useSearch()).get('redirect');
  const refused = isSafeRedirect(redirect) ? redirect : undefined;
  return (
    <StatusPage
      code="403"
      title={t('page.forbidden')}
      actions={
        <>
          <Link href="/" className={ui.button.primary}>
            {t('console:status.home')}
          </Link>
          {refused && (
            <Link href={refused} className={ui.button.secondary}>
              {t('console:status.retry')}
            </Link>
          )}
        </>
      }
    >
      <p className={styles.text}>{t('page.contactAdmin')}</p>
      {refused && <p className={styles.detail}>{refused}</p>}
    </StatusPage>
  );
}
