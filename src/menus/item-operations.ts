import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { validationError, type ValidationIssue } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { contentWrite } from '../content/access.ts';
import { viewOf } from '../content/lookup.ts';
import { inTransaction, type Transaction } from '../db/dialect.ts';
import { checkLink, type LinkInput } from './references.ts';
import { placementOf, readItem, readMenu, requireItem, requireMenu } from './read.ts';
import type { CreateMenuItemBody, MenuItem, MenuWithItems, ReorderMenuBody, UpdateMenuItemBody } from './schemas.ts';
import * as store from './store.ts';
import { childrenByParent, maxMenuDepth, maxMenuItems, treeProblem, type Placement, type TreeProblem } from './tree.ts';

/**
 * Writes to a menu's items. Each runs in one transaction holding the menu's row, so writes to one
 * menu take turns and the tree rules hold against the items as they are, never a stale copy.
 */

interface LockedMenu {
  menu: store.MenuRow;
  items: store.MenuItemRow[];
}

async function lockMenu(db: Transaction, name: string): Promise<LockedMenu> {
  const menu = await requireMenu(db, name, { lock: true });
  return { menu, items: await store.listItems(db, menu.id) };
}

/** Item changes show in the menu's `updatedAt`, so a cached menu can tell it is stale. */
async function touchMenu(ctx: AuthorizedContext, db: Transaction, menu: store.MenuRow): Promise<store.MenuRow> {
  const changes = { updated_at: isoNow(ctx.clock) };
  await store.updateMenu(db, menu.id, changes);
  return { ...menu, ...changes };
}

/** After the last of a parent's children. */
function nextSortOrder(items: readonly Placement[], parentId: string | null): number {
  return items.reduce((next, item) => (item.parentId === parentId ? Math.max(next, item.sortOrder + 1) : next), 0);
}

/** Why a tree problem is refused, for the `parentId` it names. */
function treeProblemMessage(problem: TreeProblem): string {
  if (problem.kind === 'unknownParent') return 'Must be an item of the same menu';
  if (problem.kind === 'cycle') return 'An item cannot sit under itself or one of its own descendants';
  return `A menu is at most ${maxMenuDepth} levels deep`;
}

/** A new or changed parent: an item of the menu, making no cycle and no level past the bound. */
function checkPlacement(items: readonly store.MenuItemRow[], placed: Placement): void {
  const problem = treeProblem([...items.filter((item) => item.id !== placed.id).map(placementOf), placed]);
  if (problem) throw validationError([{ path: 'parentId', message: treeProblemMessage(problem) }]);
}

export const createMenuItem = defineOperation({
  name: 'menus.createItem',
  access: contentWrite,
  async run(ctx, input: { name: string } & z.output<typeof CreateMenuItemBody>): Promise<{ item: MenuItem }> {
    return inTransaction(ctx.db, async (db) => {
      const { menu, items } = await lockMenu(db, input.name);
      if (items.length >= maxMenuItems) throw validationError([{ path: '', message: `A menu has at most ${maxMenuItems} items` }]);
      const link = await checkLink(db, { type: input.type, referenceCollection: input.referenceCollection ?? null, referenceId: input.referenceId ?? null, url: input.url ?? null });
      const label = input.label ?? link.title;
      if (label === undefined) throw validationError([{ path: 'label', message: 'A custom link needs a label' }]);
      const parentId = input.parentId ?? null;
      const placement = { id: newId(), parentId, sortOrder: input.sortOrder ?? nextSortOrder(items.map(placementOf), parentId) };
      checkPlacement(items, placement);
      const now = isoNow(ctx.clock);
      const row: store.MenuItemRow = {
        id: placement.id,
        menu_id: menu.id,
        parent_id: parentId,
        sort_order: placement.sortOrder,
        type: link.type,
        reference_collection: link.reference_collection,
        reference_id: link.reference_id,
        label,
        url: link.url,
        target: input.target ?? null,
        title_attribute: input.titleAttribute ?? null,
        css_classes: input.cssClasses ?? null,
        description: input.description ?? null,
        created_at: now,
        updated_at: now,
      };
      await store.insertItem(db, row);
      await touchMenu(ctx, db, menu);
      return { item: await readItem(db, row, viewOf(ctx)) };
    });
  },
});

const linkFields = ['type', 'referenceCollection', 'referenceId', 'url'] as const;

/**
 * The link an update asks for. A new `type` starts a new link from the body alone (the old kind's
 * reference or URL would not fit it); otherwise the body's fields change the stored ones.
 */
function updatedLink(row: store.MenuItemRow, body: z.output<typeof UpdateMenuItemBody>): LinkInput {
  const stored = body.type !== undefined && body.type !== row.type
    ? { type: body.type, referenceCollection: null, referenceId: null, url: null }
    : { type: row.type, referenceCollection: row.reference_collection, referenceId: row.reference_id, url: row.url };
  return {
    type: stored.type,
    referenceCollection: body.referenceCollection !== undefined ? body.referenceCollection : stored.referenceCollection,
    referenceId: body.referenceId !== undefined ? body.referenceId : stored.referenceId,
    url: body.url !== undefined ? body.url : stored.url,
  };
}

/** Any of the item's fields. A new target without a label takes the target's title, as a new item does. */
export const updateMenuItem = defineOperation({
  name: 'menus.updateItem',
  access: contentWrite,
  async run(ctx, input: { name: string; id: string; body: z.output<typeof UpdateMenuItemBody> }): Promise<{ item: MenuItem }> {
    return inTransaction(ctx.db, async (db) => {
      const { menu, items } = await lockMenu(db, input.name);
      const row = requireItem(menu, items, input.id);
      const { body } = input;
      const changes: Partial<store.MenuItemRow> = { updated_at: isoNow(ctx.clock) };
      // An untouched link is not checked again: a label can still be fixed on an item whose target is gone.
      if (linkFields.some((field) => body[field] !== undefined)) {
        const link = await checkLink(db, updatedLink(row, body));
        const retargeted = link.type !== row.type || link.reference_collection !== row.reference_collection || link.reference_id !== row.reference_id;
        Object.assign(changes, { type: link.type, reference_collection: link.reference_collection, reference_id: link.reference_id, url: link.url });
        if (retargeted && body.label === undefined && link.title !== undefined) changes.label = link.title;
      }
      if (body.label !== undefined) changes.label = body.label;
      const parentId = body.parentId !== undefined ? body.parentId : row.parent_id;
      if (parentId !== row.parent_id) {
        const others = items.filter((item) => item.id !== row.id).map(placementOf);
        const sortOrder = body.sortOrder ?? nextSortOrder(others, parentId);
        checkPlacement(items, { id: row.id, parentId, sortOrder });
        Object.assign(changes, { parent_id: parentId, sort_order: sortOrder });
      } else if (body.sortOrder !== undefined) {
        changes.sort_order = body.sortOrder;
      }
      if (body.target !== undefined) changes.target = body.target;
      if (body.titleAttribute !== undefined) changes.title_attribute = body.titleAttribute;
      if (body.cssClasses !== undefined) changes.css_classes = body.cssClasses;
      if (body.description !== undefined) changes.description = body.description;
      await store.updateItem(db, row.id, changes);
      await touchMenu(ctx, db, menu);
      return { item: await readItem(db, { ...row, ...changes }, viewOf(ctx)) };
    });
  },
});

/** Removes the item; its children take its place under its parent, in their order (as terms' do). */
export const deleteMenuItem = defineOperation({
  name: 'menus.deleteItem',
  access: contentWrite,
  async run(ctx, input: { name: string; id: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (db) => {
      const { menu, items } = await lockMenu(db, input.name);
      const row = requireItem(menu, items, input.id);
      const children = childrenByParent(items.map(placementOf));
      const siblings = (children.get(row.parent_id) ?? []).flatMap((item) => (item.id === row.id ? (children.get(row.id) ?? []) : [item]));
      const now = isoNow(ctx.clock);
      for (const [sortOrder, item] of siblings.entries()) {
        if (item.parentId !== row.parent_id || item.sortOrder !== sortOrder) await store.updateItem(db, item.id, { parent_id: row.parent_id, sort_order: sortOrder, updated_at: now });
      }
      await store.deleteItem(db, row.id);
      await touchMenu(ctx, db, menu);
    });
    return { success: true };
  },
});

/**
 * Places many items at once. Every id must be an item of the menu and appear once, every parent an
 * item of the menu (listed or not: unlisted items keep their place), and the result must have no
 * cycle and no level past the bound. Any problem is a 400 naming the list index, and nothing changes.
 */
export const reorderMenuItems = defineOperation({
  name: 'menus.reorder',
  access: contentWrite,
  async run(ctx, input: { name: string } & z.output<typeof ReorderMenuBody>): Promise<{ item: MenuWithItems }> {
    return inTransaction(ctx.db, async (db) => {
      const { menu, items } = await lockMenu(db, input.name);
      const placements = new Map(items.map((item) => [item.id, placementOf(item)]));
      const issues: ValidationIssue[] = [];
      const listedAt = new Map<string, number>();
      for (const [index, placed] of input.items.entries()) {
        if (listedAt.has(placed.id)) issues.push({ path: `items.${index}.id`, message: `Item ${placed.id} is listed twice (first at ${listedAt.get(placed.id)})` });
        else if (!placements.has(placed.id)) issues.push({ path: `items.${index}.id`, message: `No item ${placed.id} in menu ${menu.name}` });
        if (placed.parentId !== null && !placements.has(placed.parentId)) issues.push({ path: `items.${index}.parentId`, message: `No item ${placed.parentId} in menu ${menu.name}` });
        if (!listedAt.has(placed.id)) listedAt.set(placed.id, index);
      }
      if (issues.length > 0) throw validationError(issues);
      const wanted = new Map(input.items.map((placed) => [placed.id, placed]));
      const problem = treeProblem([...placements.values()].map((placement) => wanted.get(placement.id) ?? placement));
      if (problem) {
        // The listed item nearest the trouble is the one whose move caused it.
        const culprit = problem.ids.find((id) => listedAt.has(id));
        throw validationError([{ path: culprit === undefined ? 'items' : `items.${listedAt.get(culprit)}.parentId`, message: treeProblemMessage(problem) }]);
      }
      const now = isoNow(ctx.clock);
      for (const placed of input.items) {
        const before = placements.get(placed.id)!;
        if (before.parentId !== placed.parentId || before.sortOrder !== placed.sortOrder) {
          await store.updateItem(db, placed.id, { parent_id: placed.parentId, sort_order: placed.sortOrder, updated_at: now });
        }
      }
      return { item: await readMenu(db, await touchMenu(ctx, db, menu), viewOf(ctx)) };
    });
  },
});
