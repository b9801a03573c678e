// Tree records as indented <option>s (tree order), the tenants so, and the tenant filter of a list.
import type { Tenant } from '../../../core/api/tenants';
import { useT } from '../../i18n';
import { FilterSelect } from './FilterSelect';
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
  return (
    <FilterSelect label={t('admin:user.tenant')} allLabel={t('admin:user.allTenants')} value={value} onChange={onChange}>
      <TenantOptions tenants={tenants} />
    </FilterSelect>
  );
}
