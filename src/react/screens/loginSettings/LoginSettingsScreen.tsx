// operate/setting: login management, branding, the license and third-party login, as four tabs; a banner when the
// license has expired or expires within 30 days.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import * as license from '../../../core/api/license';
import * as settings from '../../../core/api/settings';
import { formatDate } from '../../../core/format';
import { useT, useTexts } from '../../i18n';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';
import { expiryNotice } from './licenseExpiry';
import * as styles from './settings.css';
import { Tabs } from '../../widgets/admin/Tabs';
import type { LicenseStatus } from '../../../core/types';

// Each tab is its own chunk: the forms together would pass a lazy screen's size budget.
const SignInPolicyForm = lazy(() => import('./SignInPolicyForm').then((module) => ({ default: module.SignInPolicyForm })));
const BrandingForm = lazy(() => import('./BrandingForm').then((module) => ({ default: module.BrandingForm })));
const LicensePanel = lazy(() => import('./LicensePanel').then((module) => ({ default: module.LicensePanel })));
const IdpPanel = lazy(() => import('./IdpPanel').then((module) => ({ default: module.IdpPanel })));

function Loading({ failed }: { failed: boolean }) {
  const t = useT();
  return <p className={ui.empty}>{t(failed ? 'console:unavailable' : 'console:loading')}</p>;
}

function ExpiryBanner({ status }: { status: LicenseStatus | undefined }) {
  const t = useT();
  const notice = expiryNotice(status);
  if (!notice) return null;
  const date = formatDate(notice.date, 'YYYY-MM-DD');
  return (
    <div role="status" className={`${styles.banner} ${notice.kind === 'expired' ? styles.bannerError : ''}`}>
      {notice.kind === 'expired' ? t('settings:license.expiredBanner', { date }) : t('settings:license.expiringBanner', { date, count: notice.days })}
    </div>
  );
}

type SettingsTab = 'signIn' | 'branding' | 'license' | 'thirdParty';

const lazyPanel = (panel: ReactNode) => <Suspense fallback={<Loading failed={false} />}>{panel}</Suspense>;

export default function LoginSettingsScreen({ route }: ScreenProps) {
  const t = useT();
  const ready = useTexts(undefined, 'settings');
  const [tab, setTab] = useState<SettingsTab>('signIn');
  const policy = useResource(settings.loginSettings, []);
  const config = useResource(settings.screenConfig, []);
  const licenseStatus = useResource(license.status, []);
  const [activated, setActivated] = useState<LicenseStatus>();
  const status = activated ?? licenseStatus.data;

  if (!ready) return <Loading failed={false} />;
  return (
    <div>
      <h1 className={ui.pageTitle}>{t(route.name)}</h1>
      <ExpiryBanner status={status} />
      <Tabs
        label={t(route.name)}
        selected={tab}
        onSelect={setTab}
        onPage
        tabs={[
          { key: 'signIn', label: t('settings:tab.signIn') },
          { key: 'branding', label: t('settings:tab.branding') },
          { key: 'license', label: t('settings:tab.license') },
          { key: 'thirdParty', label: t('settings:tab.thirdParty') },
        ]}
      >
        {lazyPanel(
          tab === 'signIn' ? (
            policy.data ? (
              <SignInPolicyForm initial={policy.data} />
            ) : (
              <Loading failed={policy.failed} />
            )
          ) : tab === 'branding' ? (
            config.data ? (
              <BrandingForm initial={config.data} />
            ) : (
              <Loading failed={config.failed} />
            )
          ) : tab === 'license' ? (
            <LicensePanel status={status} onChange={setActivated} />
          ) : (
            <IdpPanel />
          ),
        )}
      </Tabs>
    </div>
  );
}
