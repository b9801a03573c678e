// What a global menu plan shows to each kind of person, before it is saved: the side menu of a
// platform administrator, a tenant administrator and a member (no administration rights), drawn
// the way the console will draw it (useMenuOf), from the plan as the server will answer it
// (withAdministration: no plan takes an administration screen away; items bound to a privilege
// reach only its holders, so they are left out for the tenant administrator and the member here).
import type { MenuItem } from '../../../core/acl';
import { ADMINISTRATION_GROUP, missingAdministration, withAdministration } from '../../../core/administration-menu';
import type { PlanMenuItem } from '../../../core/api/menu-plans';
import { Permission } from '../../../core/permission-codes';
import { useMenuOf } from '../../app/useMenu';
import { useNameText, useT } from '../../i18n';
import * as styles from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';

/** The permission codes each kind of person holds (server/auth/actor.ts permissionsOf). */
const viewers = [
  { label: 'admin:menu.preview.platform', permissions: Object.values(Permission), holdsAll: true },
  { label: 'admin:menu.preview.tenant', permissions: [Permission.SelfService, Permission.Users, Permission.Operations], holdsAll: false },
  { label: 'admin:menu.preview.member', permissions: [Permission.SelfService], holdsAll: false },
] as const;

/** The items someone holding no privilege sees (the server's visibleItems with nothing held). */
function unboundItems(items: readonly PlanMenuItem[]): PlanMenuItem[] {
  return items.flatMap((item) => (item.privilegeId ? [] : [{ ...item, ...(item.children ? { children: unboundItems(item.children) } : {}) }]));
}

/** The global menu as the server answers it to this kind of viewer (services/menu-plans.ts visibleMenus). */
function answerFor(items: readonly PlanMenuItem[], viewer: (typeof viewers)[number]): PlanMenuItem[] {
  const answered = withAdministration(items, viewer.permissions);
  return viewer.holdsAll ? answered : unboundItems(answered);
}

function MenuList({ items }: { items: readonly MenuItem[] }) {
  const nameText = useNameText();
  return (
    <ul className={styles.previewList}>
      {items.map((item) => (
        <li key={item.path}>
          {nameText(item.name)}
          {item.children?.length ? <MenuList items={item.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

export function PlanPreview({ items }: { items: readonly PlanMenuItem[] }) {
  const t = useT();
  const nameText = useNameText();
  const menuOf = useMenuOf();
  const missing = missingAdministration(items);
  return (
    <section className={ui.card} aria-labelledby="iam-menu-preview">
      <h3 id="iam-menu-preview" className={styles.panelTitle}>
        {t('admin:menu.preview.title')}
      </h3>
      <p className={ui.muted}>{t('admin:menu.preview.rule')}</p>
      {missing.length > 0 && (
        <p className={styles.warning} role="status">
          {t('admin:menu.preview.kept', {
            screens: missing.map((screen) => nameText(screen.name)).join(t('admin:menu.preview.separator')),
            group: nameText(ADMINISTRATION_GROUP.name),
          })}
        </p>
      )}
      <div className={styles.previewColumns}>
        {viewers.map((viewer) => (
          <section key={viewer.label} aria-label={t(viewer.label)}>
            <h4 className={styles.previewTitle}>{t(viewer.label)}</h4>
            <MenuList items={menuOf(viewer.permissions, answerFor(items, viewer))} />
          </section>
        ))}
      </div>
    </section>
  );
}
