// The console's sign-in page (/login, the screen map): branding from the system config (login logo or
// else the app logo, sign, the app name as the page's h1, copyright), the sign-in form (captcha when the server asks, the next step of a
// multi-step login) and, with supportThirdLogin 'Y', the third-party sign-in buttons. After the
// sign-in the guard sends the person on: to the `redirect` query when it is a same-origin console
// page they may open, else to the first page they are permitted.
import { useRef } from 'react';
import { useStore } from '../../store';
import { useSearch } from 'wouter';
import { fileUrl } from '../../../core/api/files';
import { $config } from '../../../core/config-store';
import { isSafeRedirect } from '../../../core/routes';
import { useConsole } from '../../app/context';
import { LocaleSwitch, ThemeSwitch } from '../../app/Switches';
import { useT } from '../../i18n';
import { LoginForm } from '../../login/LoginForm';
import { ConsoleMark } from '../../widgets/LogoBlock';
import * as styles from './LoginScreen.css';
import { ThirdPartyLogin } from './ThirdPartyLogin';
import { useLoginBackground } from './useLoginBackground';

export default function LoginScreen() {
  const t = useT();
  const { system } = useStore($config);
  const { connection } = useConsole();
  const redirect = new URLSearchParams(useSearch()).get('redirect');
  const appName = system.appName || t('app.name');
  // A sign-in logo of its own, else the application's logo: an uploaded logo replaces the default mark.
  const logo = system.loginLogoPath || system.appLogo;
  const pageRef = useRef<HTMLDivElement>(null);
  const background = useLoginBackground(pageRef, styles.page);

  return (
    <div ref={pageRef} className={`${styles.page} ${background.custom ? styles.customBackground : ''}`} style={background.style} part="login-page">
      <div className={styles.tools}>
        <LocaleSwitch />
        <ThemeSwitch />
      </div>
      <aside className={styles.brand}>
        <div className={styles.pattern} />
        <div className={styles.brandTop}>
          {logo ? <img className={styles.logo} src={fileUrl(logo)} alt="" /> : <ConsoleMark className={styles.logo} />}
          <h1 className={styles.appName}>{appName}</h1>
        </div>
        <div className={styles.pitch}>
          <p className={styles.sign}>{system.loginSign || t('console:login.sign')}</p>
          <p className={styles.pitchText}>{t('console:login.pitch')}</p>
        </div>
        <p className={styles.copyright}>{system.copyright || `© ${new Date().getFullYear()} ${appName}`}</p>
      </aside>
      <main className={styles.formSide}>
        <div className={styles.formBox}>
          <LoginForm {...connection} appName={appName} />
          {system.supportThirdLogin === 'Y' && <ThirdPartyLogin redirect={isSafeRedirect(redirect) ? redirect : undefined} />}
        </div>
      </main>
    </div>
  );
}
