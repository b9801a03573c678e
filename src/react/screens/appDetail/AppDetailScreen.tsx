// App details (app/detail/{id}, the app id from the route): basics, the privilege tree editor,
// the app as a SAML service provider, roles (privileges from the tree, members) and the app's
// administrators, one tab each.
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import * as appApi from '../../../core/api/apps';
import { useT } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { missingSaidInPlace } from '../../widgets/admin/serverErrors';
import { Tabs } from '../../widgets/admin/Tabs';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';

const BasicsPanel = lazy(() => import('./BasicsPanel'));
const PrivilegesPanel = lazy(() => import('./PrivilegesPanel'));
const RolesPanel = lazy(() => import('./RolesPanel'));
const AdminsPanel = lazy(() => import('./AdminsPanel'));
const SamlPanel = lazy(() => import('./SamlPanel'));

type Tab = 'basics' | 'saml' | 'privileges' | 'roles' | 'admins';
const tabKeys: Tab[] = ['basics', 'saml', 'privileges', 'roles', 'admins'];

export default function AppDetailScreen({ params }: ScreenProps) {
  const t = useT();
  const appId = params.id ?? '';
  const app = useResource(() => missingSaidInPlace(appApi.get(appId)), [appId]);
  const [tab, setTab] = useState<Tab>('basics');

  return (
    <AdminPage title="route.appDetail">
      {app.failed && !app.data ? (
        <div className={ui.card} role="alert">
          <p>{t('admin:app.missing')}</p>
          <Link href="/operate/app" className={ui.link}>
            {t('admin:app.backToList')}
          </Link>
        </div>
      ) : !app.data ? (
        <p role="status">{t('console:loading')}</p>
      ) : (
        <section className={ui.card} aria-labelledby="iam-app-name">
          <div className={ui.cardHeader}>
            <h2 id="iam-app-name" className={ui.cardTitle}>
              {app.data.name}
            </h2>
            {app.data.isMaster && <span className={ui.badge}>{t('admin:app.masterYes')}</span>}
          </div>
          <Tabs label={t('admin:app.sections')} tabs={tabKeys.map((key) => ({ key, label: t(`admin:app.tab.${key}`) }))} selected={tab} onSelect={setTab}>
            <Suspense fallback={<p role="status">{t('console:loading')}</p>}>
              {tab === 'basics' && <BasicsPanel app={app.data} onSaved={app.reload} />}
              {tab === 'saml' && <SamlPanel appId={app.data.id} />}
              {tab === 'privileges' && <PrivilegesPanel appId={app.data.id} />}
              {tab === 'roles' && <RolesPanel appId={app.data.id} />}
              {tab === 'admins' && <AdminsPanel appId={app.data.id} />}
            </Suspense>
          </Tabs>
        </section>
      )}
    </AdminPage>
  );
}
