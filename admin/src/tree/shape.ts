/** A node of an ordered tree: a menu's item, a taxonomy's term. */
export interface TreeNode<N> {
  id: string;
  children: N[];
}

/** A tree's shape: each parent's children in order (`null` is the top level). */
export type Shape = Map<string | null, string[]>;

/** Where an item goes: under `parentId`, at `index` among its siblings (past the end: last). */
export interface Place {
  parentId: string | null;
  index: number;
}

export function shapeOf<N extends TreeNode<N>>(items: readonly N[]): Shape {
  const shape: Shape = new Map();
  const walk = (nodes: readonly N[], parentId: string | null) => {
    shape.set(parentId, nodes.map((node) => node.id));
    for (const node of nodes) walk(node.children, node.id);
  };
  walk(items, null);
  return shape;
}

export function parentOf(shape: Shape, id: string): string | null {
  for (const [parentId, children] of shape) if (children.includes(id)) return parentId;
  return null;
}

/** Whether `id` is `ancestor` or below it: an item cannot go under itself. */
function isWithin(shape: Shape, id: string | null, ancestor: string): boolean {
  for (let at = id; at !== null; at = parentOf(shape, at)) if (at === ancestor) return true;
  return false;
}

/** The shape with `id` (and everything under it) moved to `place`; undefined when that is not a move. */
export function moved(shape: Shape, id: string, place: Place): Shape | undefined {
  if (isWithin(shape, place.parentId, id)) return undefined;
  const next: Shape = new Map([...shape].map(([parentId, children]) => [parentId, children.filter((child) => child !== id)]));
  const siblings = next.get(place.parentId) ?? [];
  next.set(place.parentId, [...siblings.slice(0, place.index), id, ...siblings.slice(place.index)]);
  return next;
}

/** The moves the toolbar and the keyboard offer for `id`, each a place, or undefined where it cannot go. */
export function stepsOf(shape: Shape, id: string): Record<'up' | 'down' | 'in' | 'out', Place | undefined> {
  const parentId = parentOf(shape, id);
  const siblings = shape.get(parentId) ?? [];
  const index = siblings.indexOf(id);
  const previous = siblings[index - 1];
  const grandparent = parentId === null ? undefined : parentOf(shape, parentId);
  return {
    up: index > 0 ? { parentId, index: index - 1 } : undefined,
    down: index < siblings.length - 1 ? { parentId, index: index + 1 } : undefined,
    // Under the item above it, last.
    in: previous === undefined ? undefined : { parentId: previous, index: shape.get(previous)?.length ?? 0 },
    // Beside its parent, just after it.
    out: parentId === null || grandparent === undefined ? undefined : { parentId: grandparent, index: (shape.get(grandparent) ?? []).indexOf(parentId) + 1 },
  };
}

/** A place next to or under `target`, as a drop names it. */
export function dropPlace(shape: Shape, id: string, target: string, position: 'before' | 'after' | 'on'): Place {
  if (position === 'on') return { parentId: target, index: (shape.get(target) ?? []).filter((child) => child !== id).length };
  const parentId = parentOf(shape, target);
  const siblings = (shape.get(parentId) ?? []).filter((child) => child !== id);
  return { parentId, index: siblings.indexOf(target) + (position === 'after' ? 1 : 0) };
}

/** Every node with its parent and order, as the reorder endpoints (menus, terms) take them. */
export function placements(shape: Shape): { id: string; parentId: string | null; sortOrder: number }[] {
  return [...shape].flatMap(([parentId, children]) => children.map((id, sortOrder) => ({ id, parentId, sortOrder })));
}

/**
 * The tree again from a shape, for showing a move at once while the server stores it. A node whose
 * children are the same as before is the same object: the tree's collection keeps what it built for
 * it, so a move rebuilds the few nodes it changed, not thousands.
 */
export function treeOf<N extends TreeNode<N>>(shape: Shape, byId: ReadonlyMap<string, N>, parentId: string | null = null): N[] {
  return (shape.get(parentId) ?? []).map((id) => {
    const node = byId.get(id)!;
    const children = treeOf(shape, byId, id);
    const same = children.length === node.children.length && children.every((child, index) => child === node.children[index]);
    return same ? node : { ...node, children };
  });
}

/** Every node by id, at any depth. */
export function indexed<N extends TreeNode<N>>(nodes: readonly N[], into = new Map<string, N>()): Map<string, N> {
  for (const node of nodes) {
    into.set(node.id, node);
    indexed(node.children, into);
  }
  return into;
}
