// A tree (WAI-ARIA tree pattern): one tab stop, arrows move and open/close, Enter or a click
// selects. Children render only when their parent is open, so large trees stay cheap.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from '../Icon';
import * as styles from './admin.css';
import { childrenByParent, type TreeNode } from './tree';

export interface TreeViewProps<T extends TreeNode> {
  label: string;
  nodes: readonly T[];
  renderLabel: (node: T) => ReactNode;
  selectedId?: string;
  onSelect: (node: T) => void;
  /** Open at first: the top level's children are visible. */
  initiallyOpen?: (node: T, depth: number) => boolean;
}

export function TreeView<T extends TreeNode>({
  label,
  nodes,
  renderLabel,
  selectedId,
  onSelect,
  initiallyOpen = (_node, depth) => depth === 1,
}: TreeViewProps<T>) {
  const children = useMemo(() => childrenByParent(nodes), [nodes]);
  // The selected node's ancestors open, so a node chosen elsewhere (a search) is on screen.
  const revealed = useMemo(() => {
    const parents = new Map(nodes.map((node) => [node.id, node.parentId]));
    const path = new Set<string>();
    for (let id = selectedId && parents.get(selectedId); id; id = parents.get(id)) path.add(id);
    return path;
  }, [nodes, selectedId]);
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const [closed, setClosed] = useState<Set<string>>(() => new Set());
  const [focusId, setFocusId] = useState<string>();
  const rowRefs = useRef(new Map<string, HTMLDivElement>());
  // Scrolled to when chosen elsewhere, not for the first selection: scrolling the page as it opens
  // moves where the next Tab starts from.
  const shownSelection = useRef(selectedId);
  useEffect(() => {
    if (!selectedId || shownSelection.current === undefined || shownSelection.current === selectedId) {
      shownSelection.current = selectedId;
      return;
    }
    shownSelection.current = selectedId;
    rowRefs.current.get(selectedId)?.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  const isOpen = (node: T, depth: number) => open.has(node.id) || (!closed.has(node.id) && (revealed.has(node.id) || initiallyOpen(node, depth)));
  const toggle = (node: T, depth: number, wanted = !isOpen(node, depth)) => {
    setOpen((current) => {
      const next = new Set(current);
      if (wanted) next.add(node.id);
      else next.delete(node.id);
      return next;
    });
    setClosed((current) => {
      const next = new Set(current);
      if (wanted) next.delete(node.id);
      else next.add(node.id);
      return next;
    });
  };

  // The rows on screen, in order: for arrow keys.
  const visible: { node: T; depth: number }[] = [];
  const walk = (parent: string, depth: number) => {
    for (const node of children.get(parent) ?? []) {
      visible.push({ node, depth });
      if (isOpen(node, depth)) walk(node.id, depth + 1);
    }
  };
  walk('', 1);
  const tabStop = visible.some((entry) => entry.node.id === (focusId ?? selectedId)) ? (focusId ?? selectedId) : visible[0]?.node.id;

  const focus = (id: string | undefined) => {
    if (!id) return;
    setFocusId(id);
    rowRefs.current.get(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent, node: T, depth: number) => {
    const index = visible.findIndex((entry) => entry.node.id === node.id);
    const hasChildren = !!children.get(node.id)?.length;
    const keys: Record<string, () => void> = {
      ArrowDown: () => focus(visible[index + 1]?.node.id),
      ArrowUp: () => focus(visible[index - 1]?.node.id),
      Home: () => focus(visible[0]?.node.id),
      End: () => focus(visible[visible.length - 1]?.node.id),
      ArrowRight: () => (hasChildren && !isOpen(node, depth) ? toggle(node, depth, true) : focus(children.get(node.id)?.[0]?.id)),
      ArrowLeft: () =>
        hasChildren && isOpen(node, depth)
          ? toggle(node, depth, false)
          : focus(
              visible
                .slice(0, index)
                .reverse()
                .find((entry) => entry.depth < depth)?.node.id,
            ),
      Enter: () => onSelect(node),
      ' ': () => onSelect(node),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const renderLevel = (parent: string, depth: number): ReactNode =>
    (children.get(parent) ?? []).map((node) => {
      const hasChildren = !!children.get(node.id)?.length;
      const expanded = hasChildren ? isOpen(node, depth) : undefined;
      return (
        <li key={node.id} role="none">
          <div
            ref={(element) => {
              if (element) rowRefs.current.set(node.id, element);
              else rowRefs.current.delete(node.id);
            }}
            role="treeitem"
            aria-level={depth}
            aria-expanded={expanded}
            aria-selected={node.id === selectedId}
            tabIndex={node.id === tabStop ? 0 : -1}
            className={`${styles.treeRow} ${styles.indent[Math.min(depth - 1, styles.MAX_INDENT)]}`}
            onClick={() => {
              setFocusId(node.id);
              onSelect(node);
            }}
            onKeyDown={(event) => onKeyDown(event, node, depth)}
          >
            <span
              className={`${styles.treeToggle} ${expanded === false ? styles.treeToggleClosed : ''}`}
              onClick={(event) => {
                event.stopPropagation();
                if (hasChildren) toggle(node, depth);
              }}
              aria-hidden="true"
            >
              {hasChildren && <Icon name="chevronDown" />}
            </span>
            <span className={styles.treeLabel}>{renderLabel(node)}</span>
          </div>
          {expanded && (
            <ul role="group" className={styles.tree}>
              {renderLevel(node.id, depth + 1)}
            </ul>
          )}
        </li>
      );
    });

  return (
    <ul role="tree" aria-label={label} className={styles.tree}>
      {renderLevel('', 1)}
    </ul>
  );
}
