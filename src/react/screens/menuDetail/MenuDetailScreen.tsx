// Menu plan details (menu/detail/{id}: the app id from the route, or 'global' for the global
// menu that the console's own side menu follows). A tree of items, each with a name, a path, an
// icon and optionally a privilege that people must hold to see it, in order. Platform
// administrators edit and save it (the server validates every item); others only look.
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import * as appApi from '../../../core/api/apps';
import * as menuApi from '../../../core/api/menu-plans';
import { GLOBAL_MENU, type Plan } from '../../../core/api/menu-plans';
import { notifySuccess } from '../../../core/messages';
import { useNavigate } from '../../app/router';
import { useT } from '../../i18n';
import { Icon, isIconName } from '../../widgets/Icon';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { PlainTextField } from '../../widgets/admin/AdminFields';
import { missingSaidInPlace, refusalOf } from '../../widgets/admin/serverErrors';
import { useAdminScope } from '../../widgets/admin/scope';
import { TreeView } from '../../widgets/admin/TreeView';
import { useResource } from '../../widgets/useResource';
import * as styles from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';
import { ItemEditor } from './ItemEditor';
import { PlanPreview } from './PlanPreview';
import { defaultConsoleMenu } from './defaultMenu';
import { addItem, blockingAncestor, fieldOf, placeOf, removeItem, shiftItem, toEditor, toPlan, updateItem, type EditorItem } from './menuTree';

const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

interface PrivilegeGroup {
  app: string;
  privileges: appApi.Privilege[];
}

/** How many apps' privileges the global menu offers to bind (a console has a handful of apps). */
const APP_CHOICES = 100;

async function privilegeGroups(appId: string): Promise<PrivilegeGroup[]> {
  if (appId !== GLOBAL_MENU) return [{ app: '', privileges: await appApi.privileges(appId) }];
  const apps = await appApi.list({ size: APP_CHOICES });
  return Promise.all(apps.list.map(async (app) => ({ app: app.name, privileges: await appApi.privileges(app.id) })));
}

export default function MenuDetailScreen({ params }: ScreenProps) {
  const t = useT();
  const scope = useAdminScope();
  const appId = params.id ?? '';
  const plan = useResource(() => menuApi.planFor(appId), [appId]);
  // Only platform administrators edit plans; they also read the apps and their privileges. Other
  // readers get the names of what the plan's items are bound to.
  const app = useResource(
    () => (scope.platform && appId !== GLOBAL_MENU ? missingSaidInPlace(appApi.get(appId)) : Promise.resolve(undefined)),
    [appId, scope.platform],
  );
  const groups = useResource(
    async () => (scope.platform ? privilegeGroups(appId) : plan.data ? [{ app: '', privileges: await menuApi.boundPrivileges(plan.data.id) }] : []),
    [appId, scope.platform, plan.data?.id],
  );
  const title = appId === GLOBAL_MENU ? t('admin:menu.global') : (app.data?.name ?? plan.data?.name ?? '');
  // A save reloads the plan, and the editor of its new version starts afresh: its Save button takes
  // the focus the old one had, so a keyboard user goes on from where they were.
  const [saved, setSaved] = useState(false);

  return (
    <AdminPage title="route.menuDetail">
      {plan.failed && !plan.data ? (
        <p className={ui.formError} role="alert">
          {t('admin:menu.missing')}
        </p>
      ) : plan.data === undefined || !groups.data || (scope.platform && appId !== GLOBAL_MENU && !app.data) ? (
        <p role="status">{t(app.failed ? 'admin:menu.missing' : 'console:loading')}</p>
      ) : (
        <MenuEditor
          key={plan.data?.version ?? 0}
          appId={appId}
          title={title}
          plan={plan.data}
          groups={groups.data ?? []}
          readOnly={!scope.platform}
          focusSave={saved}
          onSaved={() => {
            setSaved(true);
            plan.reload();
          }}
        />
      )}
    </AdminPage>
  );
}

interface MenuEditorProps {
  appId: string;
  title: string;
  plan: Plan | null;
  groups: PrivilegeGroup[];
  readOnly: boolean;
  /** The plan was just saved: the Save button takes the focus. */
  focusSave: boolean;
  onSaved: () => void;
}

function MenuEditor({ appId, title, plan, groups, readOnly, focusSave, onSaved }: MenuEditorProps) {
  const t = useT();
  const navigate = useNavigate();
  const [nodes, setNodes] = useState<EditorItem[]>(() => toEditor(plan?.items ?? []));
  const [name, setName] = useState(plan?.name ?? title);
  const [selectedId, setSelectedId] = useState<string | undefined>(() => nodes[0]?.id);
  const [errors, setErrors] = useState<Record<string, Record<string, string>>>({});
  const [nameError, setNameError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const saveButton = useRef<HTMLButtonElement>(null);
  const selected = nodes.find((node) => node.id === selectedId);
  const privileges = useMemo(() => new Map(groups.flatMap((group) => group.privileges.map((each) => [each.id, each]))), [groups]);
  const privilegeName = (id: string) => privileges.get(id)?.name;
  /** Why an item cannot be reached by the holders of its privilege alone, if it cannot. */
  const unreachable = (node: EditorItem) => {
    const blocker = blockingAncestor(nodes, node.id, (id) => privileges.get(id)?.parentId);
    return (
      blocker &&
      t('admin:menu.unreachable', { privilege: privilegeName(node.privilegeId) ?? '', parent: blocker.name, other: privilegeName(blocker.privilegeId) ?? '' })
    );
  };

  useEffect(() => setName((current) => current || title), [title]);
  useEffect(() => {
    if (focusSave) saveButton.current?.focus();
  }, [focusSave]);

  const change = (next: EditorItem[]) => {
    setNodes(next);
    setFailure(undefined);
  };
  const add = (parentId: string | null) => {
    const added = addItem(nodes, parentId);
    change(added.nodes);
    setSelectedId(added.id);
  };

  const save = async () => {
    if (saving) return;
    setSaving(true);
    setFailure(undefined);
    setErrors({});
    setNameError(undefined);
    const items = toPlan(nodes);
    try {
      if (plan) await menuApi.update(plan.id, { name, items, version: plan.version });
      else await menuApi.create({ appId: appId === GLOBAL_MENU ? null : appId, name, items });
    } catch (error) {
      const refusal = refusalOf(error);
      const found: Record<string, Record<string, string>> = {};
      for (const { field, message } of refusal.fields) {
        if (field === 'name') setNameError(message);
        const at = fieldOf(nodes, field);
        if (at) found[at.id] = { ...found[at.id], [at.field]: message };
      }
      setErrors(found);
      const first = Object.keys(found)[0];
      if (first) setSelectedId(first);
      setFailure(refusal.stale ? t('admin:menu.stale') : refusal.fields.length ? t('admin:menu.invalid') : refusal.message);
      return;
    } finally {
      setSaving(false);
    }
    notifySuccess(t('admin:done.menuSaved', { name }));
    onSaved();
  };

  const remove = async () => {
    if (!plan) return;
    try {
      await menuApi.remove(plan.id);
    } catch {
      return;
    }
    notifySuccess(t('admin:done.menuDeleted', { name: plan.name }));
    navigate('/operate/menu');
  };

  const privilegeOptions = groups.map((group) => {
    const options = group.privileges.map((each) => (
      <option key={each.id} value={each.id}>
        {`${each.name} (${each.key})`}
      </option>
    ));
    return group.app ? (
      <optgroup key={group.app} label={group.app}>
        {options}
      </optgroup>
    ) : (
      options
    );
  });

  return (
    <section className={ui.card} aria-labelledby="iam-menu-title">
      <div className={ui.cardHeader}>
        <h2 id="iam-menu-title" className={ui.cardTitle}>
          {title}
        </h2>
        {!plan && <span className={ui.badge}>{t('admin:menu.notSaved')}</span>}
      </div>
      <div className={styles.stack}>
        <PlainTextField label={t('admin:menu.planName')} required value={name} error={nameError} readOnly={readOnly} onValue={setName} />
        {!readOnly && (
          <div className={styles.inline}>
            <button type="button" className={ui.button.secondary} onClick={() => add(null)}>
              {t('admin:menu.addItem')}
            </button>
            {appId === GLOBAL_MENU && (
              <button
                type="button"
                className={ui.button.secondary}
                onClick={() => {
                  const reset = toEditor(defaultConsoleMenu());
                  change(reset);
                  setSelectedId(reset[0]?.id);
                  setErrors({});
                  notifySuccess(t('admin:menu.resetDone'));
                }}
              >
                {t('admin:menu.reset')}
              </button>
            )}
            <span className={styles.grow} />
            {plan && (
              <button type="button" className={ui.button.danger} onClick={() => setConfirming(true)}>
                {t('admin:menu.deletePlan')}
              </button>
            )}
            {/* aria-disabled, not disabled: a disabled button loses the focus to the page's body. */}
            <button ref={saveButton} type="button" className={ui.button.primary} aria-disabled={saving} onClick={() => void save()}>
              {t('admin:menu.save')}
            </button>
          </div>
        )}
        {readOnly && <p className={ui.muted}>{t('admin:menu.readOnly')}</p>}
        {failure && (
          <p className={ui.formError} role="alert">
            {failure}
          </p>
        )}
        <div className={styles.split}>
          <div>
            {nodes.length ? (
              <TreeView
                label={t('admin:menu.tree')}
                nodes={nodes}
                selectedId={selectedId}
                onSelect={(node) => setSelectedId(node.id)}
                initiallyOpen={() => true}
                renderLabel={(node) => (
                  <>
                    {isIconName(node.icon) && <Icon name={node.icon} />}
                    {node.name || t('admin:menu.untitled')}
                    {node.privilegeId && <span className={styles.tag}>{privilegeName(node.privilegeId) ?? t('admin:menu.bound')}</span>}
                    {unreachable(node) && <span className={styles.status.locked}>{t('admin:menu.unreachableTag')}</span>}
                    {errors[node.id] && <span className={styles.status.locked}>!</span>}
                  </>
                )}
              />
            ) : (
              <p className={ui.empty}>{t('admin:menu.noItems')}</p>
            )}
          </div>
          {selected && (
            <ItemEditor
              item={selected}
              errors={errors[selected.id] ?? {}}
              privilegeOptions={privilegeOptions}
              warning={unreachable(selected)}
              readOnly={readOnly}
              place={placeOf(nodes, selected.id)}
              onChange={(changes) => change(updateItem(nodes, selected.id, changes))}
              onAddChild={() => add(selected.id)}
              onShift={(step) => change(shiftItem(nodes, selected.id, step))}
              onDelete={() => {
                change(removeItem(nodes, selected.id));
                setSelectedId(undefined);
              }}
            />
          )}
        </div>
        {appId === GLOBAL_MENU && <PlanPreview items={toPlan(nodes)} />}
      </div>
      <Suspense fallback={null}>
        {confirming && (
          <ConfirmDialog
            open
            onOpenChange={setConfirming}
            title={t('admin:menu.deleteTitle')}
            question={t('admin:menu.deleteQuestion', { name: title })}
            confirmLabel={t('admin:action.delete')}
            onConfirm={remove}
          />
        )}
      </Suspense>
    </section>
  );
}
