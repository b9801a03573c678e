// The user list's CSV actions: import a file (a dialog, loaded when opened) and export the list as
// it is filtered and sorted (a download from the server, with the session).
import { lazy, Suspense, useState } from 'react';
import { exportUsers, userExportUrl } from '../../../core/api/user-import';
import type { UserQuery } from '../../../core/api/user-admin';
import { useT } from '../../i18n';
import { DownloadLink } from '../../widgets/admin/DownloadLink';
import * as ui from '../../widgets/ui.css';

const ImportDialog = lazy(() => import('./ImportDialog'));

export function CsvActions({ query, onImported }: { query: Omit<UserQuery, 'page' | 'size'>; onImported: () => void }) {
  const t = useT();
  const [importing, setImporting] = useState(false);
  return (
    <>
      <button type="button" className={ui.button.secondary} onClick={() => setImporting(true)}>
        {t('admin:import.import')}
      </button>
      <DownloadLink href={userExportUrl(query)} fileName="users.csv" fetchFile={() => exportUsers(query)}>
        {t('admin:import.export')}
      </DownloadLink>
      <Suspense fallback={null}>{importing && <ImportDialog onClose={() => setImporting(false)} onImported={onImported} />}</Suspense>
    </>
  );
}
