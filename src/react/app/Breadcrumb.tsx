// The breadcrumb: the route's ancestors from the route table, with a back button. Back goes
// to the previous console page, or, when the console was opened here, up to the nearest ancestor
// with a screen, its parameters taken from the current location (else home).
import { Link, useLocation } from 'wouter';
import { breadcrumbOf, fillPath, matchPath, upPathOf, type RouteDef } from '../../core/routes';
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
  const [location] = useLocation();
  const params = matchPath(route.path, location) ?? {};
  const trail = breadcrumbOf(route);
  const up = upPathOf(trail, params, HOME_PATH);

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
            const href = crumb.screen ? fillPath(crumb.path, params) : undefined;
            return (
              <li key={crumb.path} className={styles.crumb}>
                {index > 0 && <Icon name="chevronRight" className={styles.breadcrumbSeparator} />}
                {last ? (
                  <span className={styles.breadcrumbCurrent} aria-current="page">
                    {t(crumb.name)}
                  </span>
                ) : href ? (
                  <Link href={href} className={ui.link}>
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
