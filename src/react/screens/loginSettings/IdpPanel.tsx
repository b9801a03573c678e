// The "Third-party login" tab: the OpenID Connect identity providers whose buttons the sign-in page
// shows (when third-party login is on in Branding), with add, edit, enable/disable and delete.
import { lazy, Suspense, useState } from 'react';
import * as idps from '../../../core/api/idps';
import { fileUrl } from '../../../core/api/files';
import { urlOf } from '../../../core/api/call';
import { getProviderCallback } from '../../../core/contract/idp';
import { notifySuccess } from '../../../core/messages';
import { useT, useTexts } from '../../i18n';
import { DataTable, type Column } from '../../widgets/admin/DataTable';
import * as table from '../../widgets/admin/admin.css';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from './settings.css';

const IdpDialog = lazy(() => import('./IdpDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

type Editing = { provider?: idps.IdpDetail } | undefined;

/** The redirect URI to register at a provider, with the code left as a placeholder. */
const callbackPattern = () => {
  const code = '<code>';
  const url = new URL(urlOf(getProviderCallback, { params: { idpCode: code } }), globalThis.location.href).href;
  return url.replace(encodeURIComponent(code), code);
};

export function IdpPanel() {
  const t = useT();
  // The table's shared texts (actions, failure) are in the admin namespace.
  const ready = useTexts(undefined, 'admin');
  const list = useResource(idps.listAll, []);
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<idps.IdpDetail>();

  const toggle = async (provider: idps.IdpDetail) => {
    try {
      await idps.setEnabled(provider.code, !provider.enabled);
    } catch {
      return; // The HTTP client has shown the server's message.
    }
    notifySuccess(t(provider.enabled ? 'settings:done.idpDisabled' : 'settings:done.idpEnabled', { name: provider.name }));
    list.reload();
  };
  const remove = async (provider: idps.IdpDetail) => {
    await idps.remove(provider.code);
    notifySuccess(t('settings:done.idpDeleted', { name: provider.name }));
    list.reload();
  };

  const action = (label: 'editShort' | 'enable' | 'disable' | 'delete', name: string, onClick: () => void) => (
    <button type="button" className={`${ui.button.ghost} ${table.small}`} aria-label={t(`settings:idp.${label}Of`, { name })} onClick={onClick}>
      {t(`settings:idp.${label}`)}
    </button>
  );

  const columns: Column<idps.IdpDetail>[] = [
    // The label names the row: the icon beside it is decoration.
    { id: 'icon', header: t('settings:idp.icon'), cell: (row) => (row.icon ? <img className={ui.icon} src={fileUrl(row.icon)} alt="" /> : '—') },
    { id: 'name', header: t('settings:idp.name'), cell: (row) => row.name },
    { id: 'code', header: t('settings:idp.code'), cell: (row) => row.code },
    { id: 'issuer', header: t('settings:idp.issuer'), cell: (row) => row.issuer, wrap: true },
    {
      id: 'enabled',
      header: t('settings:idp.state'),
      cell: (row) => (
        <span className={table.status[row.enabled ? 'enabled' : 'disabled']}>{t(row.enabled ? 'settings:channel.on' : 'settings:channel.off')}</span>
      ),
    },
    {
      id: 'actions',
      header: t('settings:idp.actions'),
      align: 'end',
      cell: (row) => (
        <>
          {action('editShort', row.name, () => setEditing({ provider: row }))}
          {action(row.enabled ? 'disable' : 'enable', row.name, () => void toggle(row))}
          {action('delete', row.name, () => setDeleting(row))}
        </>
      ),
    },
  ];

  if (!ready) return null;
  return (
    <section className={styles.section} aria-labelledby="iam-idp-title">
      <h2 id="iam-idp-title" className={styles.legend}>
        {t('settings:idp.title')}
      </h2>
      <p className={styles.sectionText}>{t('settings:idp.intro', { callback: callbackPattern() })}</p>
      <div className={`${ui.actions} ${styles.toolbar}`}>
        <button type="button" className={ui.button.primary} onClick={() => setEditing({})}>
          {t('settings:idp.create')}
        </button>
      </div>
      <DataTable
        caption={t('settings:idp.title')}
        columns={columns}
        rows={list.data}
        rowKey={(row) => row.code}
        loading={list.loading}
        failed={list.failed}
        onRetry={list.reload}
        emptyText={t('settings:idp.empty')}
      />
      <Suspense fallback={null}>
        {editing && <IdpDialog provider={editing.provider} onClose={() => setEditing(undefined)} onSaved={list.reload} />}
        {deleting && (
          <ConfirmDialog
            open
            onOpenChange={(open) => !open && setDeleting(undefined)}
            title={t('settings:idp.delete')}
            question={t('settings:idp.deleteQuestion', { name: deleting.name })}
            onConfirm={() => remove(deleting)}
          />
        )}
      </Suspense>
    </section>
  );
}
