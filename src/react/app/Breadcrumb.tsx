// The breadcrumb: the route's ancestors from the route table, with a back button. Back goes
// to the previous console page, or, when the console was opened here, up to the nearest ancestor
// with a screen (else home).
import { Link } from 'wouter';
import { breadcrumbOf, type RouteDef } from '../../core/routes';
import { useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import { useBack, useNavigate } from './router';
import * as styles from './shell.css';

const HOME_PATH = '/home/index';

export function Breadcrumb({ route }: { route: RouteDef }) {
  const t = useT();
  const navigate = useNavigate();
  const { back } = useBack();
  const trail = breadcrumbOf(route);
  const up = [...trail].reverse().find((crumb) => crumb !== route && crumb.screen)?.path ?? HOME_PATH;

  return (
    <div className={styles.breadcrumbBar}>
      <button
        type="button"
        className={ui.iconButton}
        aria-label={t('console:breadcrumb.back')}
        title={t('console:breadcrumb.back')}
        onClick={() => back() || navigate(up)}
      >
        <Icon name="back" />
      </button>
      <nav className={styles.breadcrumb} aria-label={t('console:breadcrumb.label')}>
        <ol className={styles.breadcrumbList}>
          {trail.map((crumb, index) => {
            const last = index === trail.length - 1;
            return (
              <li key={crumb.path} className={styles.crumb}>
                {index > 0 && <Icon name="chevronRight" className={styles.breadcrumbSeparator} />}
                {last ? (
                  <span className={styles.breadcrumbCurrent} aria-current="page">
                    {t(crumb.name)}
                  </span>
                ) : crumb.screen && !crumb.path.includes(':') ? (
                  <Link href={crumb.path} className={ui.link}>
                    {t(crumb.name)}
                  </Link>
                ) : (
                  <span>{t(crumb.name)}</span>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
    </div>
  );
}
