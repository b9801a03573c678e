// A tree of checkboxes (a role's privileges), tri-state: a node with children shows checked when
// it and its whole subtree are checked, mixed (indeterminate) when only part of it is, unchecked
// when none. Checking a node checks its whole subtree, unchecking it unchecks the subtree, and a
// parent is checked exactly when all its children are (so it is stored as held only then). Each
// box is labelled by its node.
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
  /** A note under the legend (e.g. what holding a child means for its parents). */
  hint?: string;
}

type State = 'checked' | 'mixed' | 'unchecked';

export function CheckTree<T extends TreeNode>({ label, nodes, labelOf, checked, onChange, disabled, hint }: CheckTreeProps<T>) {
  const children = useMemo(() => childrenByParent(nodes), [nodes]);
  const rows = useMemo(() => flatten(children), [children]);
  const stateOf = (id: string): State => {
    const subtree = subtreeIds(children, id);
    const held = subtree.filter((each) => checked.has(each)).length;
    return held === subtree.length ? 'checked' : held ? 'mixed' : 'unchecked';
  };
  const parentOf = useMemo(() => new Map(nodes.map((node) => [node.id, node.parentId])), [nodes]);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(checked);
    for (const each of subtreeIds(children, id)) {
      if (on) next.add(each);
      else next.delete(each);
    }
    // Each ancestor is held exactly when all its children are.
    for (let parent = parentOf.get(id); parent && children.has(parent); parent = parentOf.get(parent)) {
      if (children.get(parent)!.every((child) => next.has(child.id))) next.add(parent);
      else next.delete(parent);
    }
    onChange(next);
  };
  return (
    <fieldset className={styles.choiceBox} disabled={disabled}>
      <legend className={styles.legend}>{label}</legend>
      {hint && <p className={styles.controlLabel}>{hint}</p>}
      {rows.map(({ node, depth }) => {
        const state = stateOf(node.id);
        return (
          <label key={node.id} className={`${styles.checkRow} ${styles.indent[Math.min(depth - 1, styles.MAX_INDENT)]}`}>
            <input
              type="checkbox"
              className={styles.checkbox}
              checked={state === 'checked'}
              // `indeterminate` has no attribute: set on the element (exposed as aria-checked="mixed").
              ref={(box) => {
                if (box) box.indeterminate = state === 'mixed';
              }}
              onChange={() => toggle(node.id, state !== 'checked')}
            />
            {labelOf(node)}
          </label>
        );
      })}
    </fieldset>
  );
}
