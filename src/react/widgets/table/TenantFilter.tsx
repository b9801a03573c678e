// Tenants as indented <option>s (tree order), and the tenant filter of a list built from them.
import { useId } from 'react';
import type { Tenant } from '../../../core/api/tenants';
import { useT } from '../../i18n';
import * as styles from './table.css';
import { childrenByParent, flatten } from './tree';

/** The tenants in tree order, each indented by its depth; `exclude` drops a subtree's root and what lies below it. */
export function TenantOptions({ tenants, exclude }: { tenants: readonly Tenant[]; exclude?: string }) {
  const rows = flatten(childrenByParent(tenants));
  let skipBelow: number | undefined;
  return (
    <>
      {rows.map(({ node, depth }) => {
        if (skipBelow !== undefined && depth > skipBelow) return null;
        skipBelow = node.id === exclude ? depth : undefined;
        if (node.id === exclude) return null;
        return (
          <option key={node.id} value={node.id}>
            {`${'\u00a0\u00a0'.repeat(depth - 1)}${node.name}`}
          </option>
        );
      })}
    </>
  );
}

export function TenantFilter({ tenants, value, onChange }: { tenants: readonly Tenant[]; value?: string; onChange: (tenantId: string | undefined) => void }) {
  const t = useT();
  const id = useId();
  return (
    <div className={styles.control}>
      <label htmlFor={id} className={styles.controlLabel}>
        {t('admin:user.tenant')}
      </label>
      <select id={id} className={styles.select} value={value ?? ''} onChange={(event) => onChange(event.currentTarget.value || undefined)}>
        <option value="">{t('admin:user.allTenants')}</option>
        <TenantOptions tenants={tenants} />
      </select>
    </div>
  );
}
