// Flat records with a parent id, seen as a tree (the server answers trees flat, in order).
export interface TreeNode {
  id: string;
  parentId: string | null;
}

/** Children by parent id ('' for the top level), each list in the records' order. Records whose
 *  parent is not among them are top-level (a tenant administrator's subtree has no root above it). */
export function childrenByParent<T extends TreeNode>(nodes: readonly T[]): Map<string, T[]> {
  const ids = new Set(nodes.map((node) => node.id));
  const children = new Map<string, T[]>();
  for (const node of nodes) {
    const parent = node.parentId && ids.has(node.parentId) ? node.parentId : '';
    children.set(parent, [...(children.get(parent) ?? []), node]);
  }
  return children;
}

/** `id` and every id below it. */
export function subtreeIds<T extends TreeNode>(children: Map<string, T[]>, id: string): string[] {
  return [id, ...(children.get(id) ?? []).flatMap((child) => subtreeIds(children, child.id))];
}

/** The nodes in tree order with their depth (1 for the top level): for indented pickers. */
export function flatten<T extends TreeNode>(children: Map<string, T[]>, parent = '', depth = 1): { node: T; depth: number }[] {
  return (children.get(parent) ?? []).flatMap((node) => [{ node, depth }, ...flatten(children, node.id, depth + 1)]);
}
