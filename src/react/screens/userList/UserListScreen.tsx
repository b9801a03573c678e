// Users (operate/user): the users of my scope, paged, searched and sorted on the server, filtered
// by tenant; create and edit in a dialog, delete and unlock after confirming, enable/disable, reset a
// password (the user mode of the password dialog) and assign roles per app (the roles of the apps
// I administer; without any, no roles button), see and end a person's sessions, and bulk actions
// on the selected users of the page; import from and export to CSV (CsvActions).
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import * as users from '../../../core/api/users';
import * as tenantApi from '../../../core/api/tenants';
import { listUsers, setStatus, type AdminUser, type UserQuery, type UserSearchProp } from '../../../core/api/user-admin';
import { formatDate } from '../../../core/format';
import { notifySuccess } from '../../../core/messages';
import { Status } from '../../../core/enums';
import { RECORD_PARAM } from '../../../core/routes';
import { HttpError } from '../../../core/http';
import type { UserSortProp } from '../../../core/schemas/admin';
import { useT } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { DataTable, SortHeader, type Column, type Sort } from '../../widgets/admin/DataTable';
import { Pager } from '../../widgets/admin/Pager';
import { RowMenu, type RowMenuItem } from '../../widgets/admin/RowMenu';
import { SearchBar } from '../../widgets/admin/SearchBar';
import { TenantFilter } from '../../widgets/admin/TenantFilter';
import { usePagedList } from '../../widgets/admin/usePagedList';
import { missingSaidInPlace } from '../../widgets/admin/serverErrors';
import { useAdminScope } from '../../widgets/admin/scope';
import { BulkActions } from './BulkActions';
import { CsvActions } from './CsvActions';
import { useResource } from '../../widgets/useResource';
import { useNavigate } from '../../app/router';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';

const UserDialog = lazy(() => import('./UserDialog'));
const RolesDialog = lazy(() => import('./RolesDialog'));
const SessionsDialog = lazy(() => import('./SessionsDialog'));
const PasswordDialog = lazy(() => import('../../dialogs/PasswordDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

type Query = Required<Pick<UserQuery, 'page' | 'size'>> & Omit<UserQuery, 'page' | 'size'>;
type Open = { kind: 'create' } | { kind: 'edit' | 'roles' | 'password' | 'delete' | 'sessions' | 'unlock'; user: AdminUser };
/** The row buttons, named by their text in admin:action. */
type RowAction = 'edit' | 'roles';

const searchFields: UserSearchProp[] = ['username', 'realName', 'email', 'mobilePhone'];

/** The person a link names (`?user=<id>`, from the audit log): shown alone, or said to be gone. */
function useLinkedUser(id: string | undefined) {
  const [state, setState] = useState<{ id: string; user?: AdminUser; gone: boolean }>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!id) return setState(undefined);
    let current = true;
    missingSaidInPlace(users.get(id)).then(
      (user) => current && setState({ id, user, gone: false }),
      (error: unknown) => current && setState({ id, gone: error instanceof HttpError && error.status === 404 }),
    );
    return () => {
      current = false;
    };
  }, [id, round]);
  const answer = state?.id === id ? state : undefined;
  return { id, user: answer?.user, gone: answer?.gone ?? false, reload: () => setRound((value) => value + 1) };
}

export default function UserListScreen() {
  const t = useT();
  const scope = useAdminScope();
  const navigate = useNavigate();
  const linked = useLinkedUser(new URLSearchParams(useSearch()).get(RECORD_PARAM.user) ?? undefined);
  // The list is not read while a link shows one person (a search or filter leaves the link).
  const list = usePagedList<AdminUser, Query>(listUsers, { sort: 'createdAt', order: 'desc' }, !!linked.id);
  const reload = () => {
    list.reload();
    linked.reload();
  };
  const tree = useResource(tenantApi.tree, []);
  const tenantNames = useMemo(() => new Map(tree.data?.map((tenant) => [tenant.id, tenant.name])), [tree.data]);
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  // The selection of the bulk actions: users of the page shown (a new page starts with none).
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setPicked(new Set()), [list.data]);
  const rows = linked.id ? (linked.user ? [linked.user] : linked.gone ? [] : undefined) : list.data?.list;
  // Searching or filtering leaves the one linked person for the whole list.
  const refine = (changes: Parameters<typeof list.refine>[0]) => {
    if (linked.id) navigate('/operate/user');
    list.refine(changes);
  };
  const selectable = (rows ?? []).filter((user) => user.id !== scope.userId);
  const selected = selectable.filter((user) => picked.has(user.id));
  const toggle = (id: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const act = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
    } catch {
      return; // the HTTP client has shown why
    }
    notifySuccess(done);
    reload();
  };
  const named = (action: RowAction, user: AdminUser) => t('admin:action.of', { action: t(`admin:action.${action}`), name: user.username });
  const rowButton = (action: RowAction, user: AdminUser, onClick: () => void) => (
    <button type="button" className={`${ui.button.ghost} ${styles.small}`} aria-label={named(action, user)} onClick={onClick}>
      {t(`admin:action.${action}`)}
    </button>
  );

  const { page: _page, size: _size, ...filter } = list.query;
  const sort: Sort<UserSortProp> = { key: list.query.sort ?? 'createdAt', order: list.query.order ?? 'desc' };
  const columns: Column<AdminUser, UserSortProp>[] = [
    {
      // The bulk selection shares the username column (the first column stays the username).
      id: 'username',
      header: t('admin:user.username'),
      sortKey: 'username',
      headerCell: (
        <span className={styles.withCheck}>
          <input
            type="checkbox"
            className={styles.checkbox}
            aria-label={t('admin:bulk.selectAll')}
            checked={selectable.length > 0 && selected.length === selectable.length}
            ref={(box) => {
              if (box) box.indeterminate = selected.length > 0 && selected.length < selectable.length;
            }}
            disabled={!selectable.length}
            onChange={(event) => setPicked(new Set(event.currentTarget.checked ? selectable.map((user) => user.id) : []))}
          />
          <SortHeader label={t('admin:user.username')} sortKey="username" sort={sort} onSort={(next) => list.refine({ sort: next.key, order: next.order })} />
        </span>
      ),
      cellName: (user) => user.username,
      cell: (user) => (
        <span className={styles.withCheck}>
          <input
            type="checkbox"
            className={styles.checkbox}
            aria-label={t('admin:bulk.select', { name: user.username })}
            checked={picked.has(user.id)}
            disabled={user.id === scope.userId}
            onChange={(event) => toggle(user.id, event.currentTarget.checked)}
          />
          {user.username}
        </span>
      ),
    },
    {
      id: 'realName',
      header: t('admin:user.realName'),
      sortKey: 'realName',
      cell: (user) => (
        <span className={styles.clipShort} title={user.realName}>
          {user.realName}
        </span>
      ),
    },
    {
      // E-mail and phone share a column (two short lines) so that the table fits a laptop screen.
      id: 'contact',
      header: t('admin:user.contact'),
      cell: (user) => (
        <span className={styles.lines}>
          <span className={styles.clipMedium} title={user.email}>
            {user.email ?? '—'}
          </span>
          {user.mobilePhone && <span>{user.mobilePhone}</span>}
        </span>
      ),
    },
    {
      id: 'tenant',
      header: t('admin:user.tenant'),
      cell: (user) => {
        const name = (user.tenantId && tenantNames.get(user.tenantId)) || '—';
        return (
          <span className={styles.clipShort} title={name}>
            {name}
          </span>
        );
      },
    },
    {
      id: 'status',
      header: t('admin:user.status'),
      cell: (user) => (
        <span className={styles.lines}>
          <span className={user.availabilityStatus === Status.Enable ? styles.status.enabled : styles.status.disabled}>
            {t(user.availabilityStatus === Status.Enable ? 'admin:status.enabled' : 'admin:status.disabled')}
          </span>
          {user.locked && <span className={styles.status.locked}>{t('admin:status.locked')}</span>}
        </span>
      ),
    },
    {
      id: 'createdAt',
      header: t('admin:user.createdAt'),
      sortKey: 'createdAt',
      cell: (user) => <time title={formatDate(user.createdAt)}>{formatDate(user.createdAt, 'YYYY-MM-DD')}</time>,
    },
    {
      id: 'actions',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (user) => {
        const enabled = user.availabilityStatus === Status.Enable;
        // Nobody resets, disables or deletes themselves here.
        const more: RowMenuItem[] =
          user.id === scope.userId
            ? []
            : [
                { key: 'password', label: t('admin:action.resetPassword'), onSelect: () => setOpen({ kind: 'password', user }) },
                { key: 'sessions', label: t('admin:action.sessions'), onSelect: () => setOpen({ kind: 'sessions', user }) },
                {
                  key: 'status',
                  label: t(`admin:action.${enabled ? 'disable' : 'enable'}`),
                  onSelect: () =>
                    void act(
                      () => setStatus(user, enabled ? Status.Disabled : Status.Enable),
                      t(enabled ? 'admin:done.userDisabled' : 'admin:done.userEnabled', { name: user.username }),
                    ),
                },
                ...(user.locked ? [{ key: 'unlock', label: t('admin:action.unlock'), onSelect: () => setOpen({ kind: 'unlock', user }) }] : []),
                { key: 'delete', label: t('admin:action.delete'), danger: true, onSelect: () => setOpen({ kind: 'delete', user }) },
              ];
        return (
          <>
            {rowButton('edit', user, () => setOpen({ kind: 'edit', user }))}
            {scope.grantsAppRoles && rowButton('roles', user, () => setOpen({ kind: 'roles', user }))}
            {more.length > 0 && <RowMenu label={t('admin:action.moreOf', { name: user.username })} items={more} />}
          </>
        );
      },
    },
  ];

  return (
    <AdminPage
      title="route.user"
      actions={
        <>
          <CsvActions query={filter} onImported={list.reload} />
          <button type="button" className={ui.button.primary} onClick={() => setOpen({ kind: 'create' })}>
            {t('admin:user.create')}
          </button>
        </>
      }
    >
      <div className={styles.toolbar}>
        <SearchBar
          fields={searchFields.map((field) => ({ value: field, label: t(`admin:user.${field}`) }))}
          onSearch={(searchProp, searchValue) => refine({ searchProp, searchValue })}
        />
        <TenantFilter tenants={tree.data ?? []} value={list.query.tenantId} onChange={(tenantId) => refine({ tenantId })} />
      </div>
      {linked.id && (
        <p role="status" className={styles.toolbar}>
          {linked.gone ? t('admin:recordLinks.personGone') : linked.user && t('admin:recordLinks.personShown', { name: linked.user.username })}{' '}
          <button type="button" className={ui.button.secondary} onClick={() => navigate('/operate/user')}>
            {t('admin:recordLinks.everyone')}
          </button>
        </p>
      )}
      <BulkActions selected={selected} onClear={() => setPicked(new Set())} onDone={reload} />
      <DataTable
        caption={t('route.user')}
        columns={columns}
        rows={rows}
        rowKey={(user) => user.id}
        loading={linked.id ? !rows : list.loading}
        failed={!linked.id && list.failed && !list.data}
        onRetry={reload}
        emptyText={t(linked.gone ? 'admin:recordLinks.personGone' : list.query.searchValue || list.query.tenantId ? 'admin:user.noMatch' : 'admin:user.empty')}
        sort={sort}
        onSort={(next) => list.refine({ sort: next.key, order: next.order })}
        stackOnPhone
        stickyActions
      />
      {list.data && !linked.id && <Pager page={list.query.page} size={list.query.size} total={list.data.pager.total} onChange={list.turn} />}

      <Suspense fallback={null}>
        {open?.kind === 'create' && <UserDialog tenants={tree.data ?? []} onClose={close} onSaved={list.reload} />}
        {open?.kind === 'edit' && <UserDialog user={open.user} tenants={tree.data ?? []} onClose={close} onSaved={reload} />}
        {open?.kind === 'roles' && <RolesDialog user={open.user} onClose={close} />}
        {open?.kind === 'sessions' && <SessionsDialog user={open.user} onClose={close} />}
        {open?.kind === 'password' && (
          <PasswordDialog open mode="user" userId={open.user.id} username={open.user.username} onOpenChange={(still) => !still && close()} />
        )}
        {open?.kind === 'delete' && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && close()}
            title={t('admin:user.deleteTitle')}
            question={t('admin:user.deleteQuestion', { name: open.user.username })}
            confirmLabel={t('admin:action.delete')}
            onConfirm={() => act(() => users.remove(open.user.id), t('admin:done.userDeleted', { name: open.user.username }))}
          />
        )}
        {open?.kind === 'unlock' && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && close()}
            title={t('admin:user.unlockTitle')}
            question={t('admin:user.unlockQuestion', { name: open.user.username })}
            confirmLabel={t('admin:action.unlock')}
            onConfirm={() => act(() => users.unlock(open.user.id), t('admin:done.userUnlocked', { name: open.user.username }))}
          />
        )}
      </Suspense>
    </AdminPage>
  );
}
