// Tree records as indented <option>s (tree order), the tenants so, and the tenant filter of a list.
import { useId } from 'react';
import type { Tenant } from '../../../core/api/tenants';
import { useT } from '../../i18n';
import * as styles from './admin.css';
import { childrenByParent, flatten, type TreeNode } from './tree';

/** Records of a tree as indented <option>s in tree order; `exclude` drops a subtree (its root and all below it). */
export function TreeOptions<T extends TreeNode>({ nodes, labelOf, exclude }: { nodes: readonly T[]; labelOf: (node: T) => string; exclude?: string }) {
  const rows = flatten(childrenByParent(nodes));
  let skipBelow: number | undefined;
  return (
    <>
      {rows.map(({ node, depth }) => {
        if (skipBelow !== undefined && depth > skipBelow) return null;
        skipBelow = node.id === exclude ? depth : undefined;
        if (node.id === exclude) return null;
        return (
          <option key={node.id} value={node.id}>
            {`${'\u00a0\u00a0'.repeat(depth - 1)}${labelOf(node)}`}
          </option>
        );
      })}
    </>
  );
}

export const TenantOptions = ({ tenants, exclude }: { tenants: readonly Tenant[]; exclude?: string }) => (
  <TreeOptions nodes={tenants} labelOf={(tenant) => tenant.name} exclude={exclude} />
);

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
