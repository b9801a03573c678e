// /onlySignIn (plain): the prompt shown when a page needs a signed-in person, with the way to the
// sign-in page (the redirect query is passed on).
import { Link, useSearch } from 'wouter';
import { isSafeRedirect, LOGIN_PATH, withRedirect } from '../../../core/routes';
import { useT } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as styles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';

export default function OnlySignInScreen() {
  const t = useT();
  const redirect = new URLSearchParams(useSearch()).get('redirect');
  const target = isSafeRedirect(redirect) ? withRedirect(LOGIN_PATH, redirect) : LOGIN_PATH;
  return (
    <StatusPage
      mark={<Icon name="shield" className={styles.mark} />}
      title={t('console:onlySignIn.title')}
      actions={
        <Link href={target} className={ui.button.primary}>
          {t('login:submit')}
        </Link>
      }
    >
      <p className={styles.text}>{t('console:onlySignIn.text')}</p>
    </StatusPage>
  );
}
