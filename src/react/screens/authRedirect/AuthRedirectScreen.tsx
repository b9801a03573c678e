// /auth-redirect (exempt from the login guard): finishes a sign-in that happened elsewhere (SSO).
// GET /cas/login says whether this browser is signed in and where to go: signed in, the session
// is read and the person goes on (the redirect when it is a permitted console page); otherwise
// to the answer's redirectURL (the sign-in page).
import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { casLogin } from '../../../core/api/auth';
import { $config } from '../../../core/config-store';
import { requestNavigation } from '../../../core/navigation';
import { afterLoginPath, LOGIN_PATH } from '../../../core/routes';
import { reload } from '../../../core/session';
import { useT } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as styles from '../../widgets/StatusPage.css';

export default function AuthRedirectScreen() {
  const t = useT();
  const redirect = new URLSearchParams(useSearch()).get('redirect') ?? undefined;

  useEffect(() => {
    let live = true;
    const finish = async () => {
      const answer = await casLogin({ redirect });
      if (!live) return;
      if (!answer.loginSuccess) {
        requestNavigation(answer.redirectURL || LOGIN_PATH);
        return;
      }
      const { user } = await reload();
      const aclSwitch = $config.get().settings.business.aclSwitch;
      requestNavigation(afterLoginPath(redirect, { permissions: user?.permissions ?? [], aclSwitch }));
    };
    finish().catch(() => live && requestNavigation(LOGIN_PATH));
    return () => {
      live = false;
    };
  }, [redirect]);

  return (
    <StatusPage mark={<Icon name="shield" className={styles.mark} />} title={t('route.authRedirect')}>
      <p className={styles.text} role="status">
        {t('console:loading')}
      </p>
    </StatusPage>
  );
}
