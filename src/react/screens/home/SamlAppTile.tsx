// A SAML app in the portal's "Your apps": a button that opens it by IdP-initiated sign-in. The
// server starts a sign-in, the console's SAML page asks the person (or goes on for a trusted app),
// then posts the signed answer to the app's first ACS URL.
import { useId } from 'react';
import { launchSamlApp } from '../../../core/api/saml';
import { requestNavigation } from '../../../core/navigation';
import type { PortalApp } from '../../app/portalApps';
import { useT } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import * as styles from './HomeScreen.css';
import { tileButton } from './SamlAppTile.css';

async function launch(appId: string) {
  try {
    requestNavigation((await launchSamlApp(appId)).redirectURL);
  } catch {
    // shown by the HTTP client
  }
}

export default function SamlAppTile({ app }: { app: PortalApp }) {
  const t = useT();
  const id = useId();
  return (
    <button type="button" className={tileButton} aria-describedby={id} onClick={() => void launch(app.id)}>
      <span className={styles.tileIcon}>
        <Icon name="app" />
      </span>
      <span className={styles.tileText}>
        <span className={styles.tileName}>{app.name}</span>
        <span id={id} className={styles.tileDescription}>
          {t('console:home.samlSignIn')}
        </span>
      </span>
    </button>
  );
}
