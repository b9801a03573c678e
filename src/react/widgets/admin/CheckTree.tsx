// A tree of checkboxes (a role's privileges): checking a node checks its whole subtree,
// unchecking it unchecks the subtree; each box is labelled by its node.
import { useMemo } from 'react';
import * as styles from './admin.css';
import { childrenByParent, flatten, subtreeIds, type TreeNode } from './tree';

export interface CheckTreeProps<T extends TreeNode> {
  label: string;
  nodes: readonly T[];
  labelOf: (node: T) => string;
  checked: ReadonlySet<string>;
  onChange: (checked: Set<string>) => void;
  disabled?: boolean;
}

export function CheckTree<T extends TreeNode>({ label, nodes, labelOf, checked, onChange, disabled }: CheckTreeProps<T>) {
  const children = useMemo(() => childrenByParent(nodes), [nodes]);
  const rows = useMemo(() => flatten(children), [children]);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(checked);
    for (const each of subtreeIds(children, id)) {
      if (on) next.add(each);
      else next.delete(each);
    }
    onChange(next);
  };
  return (
    <fieldset className={styles.options} disabled={disabled}>
      <legend className={styles.legend}>{label}</legend>
      {rows.map(({ node, depth }) => (
        <label key={node.id} className={`${styles.checkRow} ${styles.indent[Math.min(depth - 1, styles.MAX_INDENT)]}`}>
          <input type="checkbox" className={styles.checkbox} checked={checked.has(node.id)} onChange={(event) => toggle(node.id, event.currentTarget.checked)} />
          {labelOf(node)}
        </label>
      ))}
    </fieldset>
  );
}
