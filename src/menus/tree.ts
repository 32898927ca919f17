/**
 * The shape of a menu, apart from what its items link to: which item sits under which, in what order,
 * and the rules every write keeps (parents in the same menu, no cycle, a bounded depth).
 */

/** Levels a menu may have, the top one included: deeper than any navigation a site can show. */
export const maxMenuDepth = 10;

/** Items a menu may have: a menu is read whole, so its size is bounded. */
export const maxMenuItems = 1000;

export interface Placement {
  id: string;
  parentId: string | null;
  sortOrder: number;
}

/** Siblings in order: by sortOrder, then id, which is creation order (ULIDs are monotonic). */
function bySortOrder(a: Placement, b: Placement): number {
  return a.sortOrder - b.sortOrder || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Each parent's children in order; top-level items under `null`. */
export function childrenByParent<T extends Placement>(items: readonly T[]): Map<string | null, T[]> {
  const children = new Map<string | null, T[]>();
  for (const item of items) {
    const siblings = children.get(item.parentId);
    if (siblings) siblings.push(item);
    else children.set(item.parentId, [item]);
  }
  for (const siblings of children.values()) siblings.sort(bySortOrder);
  return children;
}

/**
 * What breaks the rules, with the items concerned: a parent that is not an item of the menu (the
 * item), a cycle (its members), an item deeper than `maxMenuDepth` (it and its ancestors, nearest
 * first), so a caller can name the change that caused it.
 */
export type TreeProblem = { kind: 'unknownParent' | 'cycle' | 'tooDeep'; ids: string[] };

export function treeProblem(items: readonly Placement[]): TreeProblem | undefined {
  const byId = new Map(items.map((item) => [item.id, item]));
  const depths = new Map<string, number>();
  for (const item of items) {
    // Walk up to an item whose depth is known (or past the top), then count down the chain walked.
    const chain: Placement[] = [];
    let current: Placement | undefined = item;
    while (current && !depths.has(current.id)) {
      const seenAt = chain.indexOf(current);
      if (seenAt >= 0) return { kind: 'cycle', ids: chain.slice(seenAt).map((link) => link.id) };
      chain.push(current);
      if (current.parentId === null) {
        current = undefined;
      } else {
        current = byId.get(current.parentId);
        if (!current) return { kind: 'unknownParent', ids: [chain[chain.length - 1]!.id] };
      }
    }
    let depth = current ? depths.get(current.id)! : 0;
    for (let index = chain.length - 1; index >= 0; index -= 1) {
      depth += 1;
      depths.set(chain[index]!.id, depth);
      if (depth > maxMenuDepth) return { kind: 'tooDeep', ids: [...chain.slice(index).map((link) => link.id), ...ancestorIds(byId, chain[chain.length - 1]!)] };
    }
  }
  return undefined;
}

/** The ids above an item whose ancestors are known to reach the top. */
function ancestorIds(byId: Map<string, Placement>, item: Placement): string[] {
  const ids: string[] = [];
  for (let parentId = item.parentId; parentId !== null; parentId = byId.get(parentId)!.parentId) ids.push(parentId);
  return ids;
}

/**
 * The menu as nested items, leaving out those `shown` refuses: a hidden item's children take its
 * place under its nearest shown ancestor. `build` makes an item from the id of the ancestor it is
 * shown under and its shown children.
 */
export function nestShown<T extends Placement, R>(items: readonly T[], shown: (item: T) => boolean, build: (item: T, parentId: string | null, children: R[]) => R): R[] {
  const children = childrenByParent(items);
  const under = (parentId: string | null, shownAncestor: string | null): R[] =>
    (children.get(parentId) ?? []).flatMap((item) => (shown(item) ? [build(item, shownAncestor, under(item.id, item.id))] : under(item.id, shownAncestor)));
  return under(null, null);
}
