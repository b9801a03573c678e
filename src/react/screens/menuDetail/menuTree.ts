// A menu plan's items as the editor holds them: flat records with a parent (for the tree view),
// siblings in array order, and the way back to the nested items the server stores.
import type { PlanMenuItem } from '../../../core/api/menu-plans';

export interface EditorItem {
  id: string;
  parentId: string | null;
  name: string;
  nameZh: string;
  path: string;
  icon: string;
  privilegeId: string;
}

let counter = 0;
const newId = () => `item-${(counter += 1)}`;

export function toEditor(items: readonly PlanMenuItem[], parentId: string | null = null): EditorItem[] {
  return items.flatMap((item) => {
    const id = newId();
    return [
      { id, parentId, name: item.name, nameZh: item.nameZh ?? '', path: item.path, icon: item.icon ?? '', privilegeId: item.privilegeId ?? '' },
      ...toEditor(item.children ?? [], id),
    ];
  });
}

const childrenOf = (nodes: readonly EditorItem[], parentId: string | null) => nodes.filter((node) => node.parentId === parentId);

export function toPlan(nodes: readonly EditorItem[], parentId: string | null = null): PlanMenuItem[] {
  return childrenOf(nodes, parentId).map((node) => {
    const children = toPlan(nodes, node.id);
    return {
      name: node.name.trim(),
      ...(node.nameZh.trim() ? { nameZh: node.nameZh.trim() } : {}),
      path: node.path.trim(),
      ...(node.icon ? { icon: node.icon } : {}),
      ...(node.privilegeId ? { privilegeId: node.privilegeId } : {}),
      ...(children.length ? { children } : {}),
    };
  });
}

export function addItem(nodes: readonly EditorItem[], parentId: string | null): { nodes: EditorItem[]; id: string } {
  const id = newId();
  return { nodes: [...nodes, { id, parentId, name: '', nameZh: '', path: '', icon: '', privilegeId: '' }], id };
}

export function removeItem(nodes: readonly EditorItem[], id: string): EditorItem[] {
  const gone = new Set([id]);
  // Reordering may put a child before its parent in the flat list: repeat until the subtree is whole.
  for (let size = 0; size !== gone.size;) {
    size = gone.size;
    for (const node of nodes) if (node.parentId && gone.has(node.parentId)) gone.add(node.id);
  }
  return nodes.filter((node) => !gone.has(node.id));
}

export function updateItem(nodes: readonly EditorItem[], id: string, changes: Partial<Omit<EditorItem, 'id' | 'parentId'>>): EditorItem[] {
  return nodes.map((node) => (node.id === id ? { ...node, ...changes } : node));
}

/** Swaps an item with its previous (-1) or next (1) sibling. */
export function shiftItem(nodes: readonly EditorItem[], id: string, step: -1 | 1): EditorItem[] {
  const node = nodes.find((each) => each.id === id);
  if (!node) return [...nodes];
  const siblings = childrenOf(nodes, node.parentId);
  const other = siblings[siblings.indexOf(node) + step];
  if (!other) return [...nodes];
  const next = [...nodes];
  const a = next.indexOf(node);
  const b = next.indexOf(other);
  next[a] = other;
  next[b] = node;
  return next;
}

/** The position of an item among its siblings and how many there are. */
export function placeOf(nodes: readonly EditorItem[], id: string): { index: number; count: number } {
  const node = nodes.find((each) => each.id === id);
  const siblings = node ? childrenOf(nodes, node.parentId) : [];
  return { index: node ? siblings.indexOf(node) : -1, count: siblings.length };
}

/** The item and field a server field path names (`items.0.children.2.path`). */
export function fieldOf(nodes: readonly EditorItem[], dotPath: string): { id: string; field: string } | undefined {
  const parts = dotPath.split('.');
  if (parts.shift() !== 'items') return undefined;
  let parentId: string | null = null;
  let current: EditorItem | undefined;
  while (parts.length) {
    const index = Number(parts.shift());
    current = childrenOf(nodes, parentId)[index];
    if (!current) return undefined;
    if (parts[0] !== 'children') return { id: current.id, field: parts[0] ?? 'name' };
    parts.shift();
    parentId = current.id;
  }
  return undefined;
}

/**
 * The enclosing item that keeps this item from the holders of its privilege, if any. Holding a
 * privilege shows the items bound to it and to its ancestors (server/menus/visibility.ts); an
 * enclosing item bound to anything else stays hidden from someone who holds only this item's
 * privilege, and so does everything inside it.
 */
export function blockingAncestor(
  nodes: readonly EditorItem[],
  id: string,
  parentOfPrivilege: (privilegeId: string) => string | null | undefined,
): EditorItem | undefined {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const item = byId.get(id);
  if (!item?.privilegeId) return undefined;
  const reaching = new Set<string>();
  for (let privilege: string | null | undefined = item.privilegeId; privilege && !reaching.has(privilege); privilege = parentOfPrivilege(privilege))
    reaching.add(privilege);
  let enclosing = item.parentId ? byId.get(item.parentId) : undefined;
  while (enclosing) {
    if (enclosing.privilegeId && !reaching.has(enclosing.privilegeId)) return enclosing;
    enclosing = enclosing.parentId ? byId.get(enclosing.parentId) : undefined;
  }
  return undefined;
}
