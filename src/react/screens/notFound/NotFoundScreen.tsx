// /404: 'Error: Page Not Found!'. Unknown routes come here.
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { StatusPage } from '../../widgets/StatusPage';
import * as styles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';

export default function NotFoundScreen() {
  const t = useT();
  return (
    <StatusPage
      code="404"
      title={t('page.notFound')}
      actions={
        <Link href="/" className={ui.button.primary}>
          {t('console:status.home')}
        </Link>
      }
    >
      <p className={styles.text}>{t('console:status.notFoundText')}</p>
    </StatusPage>
  );
}
