import { notFound } from '../core/errors.ts';
import type { View } from '../content/entries.ts';
import type { Db } from '../db/connection.ts';
import { resolveLinks, type Link } from './links.ts';
import type { Menu, MenuItem, MenuTreeItem, MenuWithItems } from './schemas.ts';
import * as store from './store.ts';
import { nestShown, type Placement } from './tree.ts';

/** Menus and items as the API shows them, for every operation that answers with one. */

export async function requireMenu(db: Db, name: string, options: { lock?: boolean } = {}): Promise<store.MenuRow> {
  const menu = await store.findMenu(db, name, options);
  if (!menu) throw notFound(`Menu ${name}`);
  return menu;
}

export function requireItem(menu: store.MenuRow, items: readonly store.MenuItemRow[], id: string): store.MenuItemRow {
  const item = items.find((candidate) => candidate.id === id);
  if (!item) throw notFound(`Item ${id} of menu ${menu.name}`);
  return item;
}

export function toMenu(row: store.MenuRow): Menu {
  return { name: row.name, label: row.label, createdAt: row.created_at, updatedAt: row.updated_at };
}

export function placementOf(row: store.MenuItemRow): Placement {
  return { id: row.id, parentId: row.parent_id, sortOrder: row.sort_order };
}

/**
 * An item as read. `parentId` is the item it is shown under, its parent unless that one is hidden.
 * Only editors see an entry's status; the public never meets a missing or unpublished target.
 */
function toMenuItem(row: store.MenuItemRow, link: Link, view: View, parentId: string | null): MenuItem {
  return {
    id: row.id,
    parentId,
    sortOrder: row.sort_order,
    type: row.type,
    label: row.label,
    url: link.url,
    referenceCollection: row.reference_collection,
    referenceId: row.reference_id,
    slug: link.slug,
    ...(view === 'editor' && link.status !== undefined ? { status: link.status } : {}),
    ...(link.missing ? { missing: true as const } : {}),
    // Stored as validated on write.
    target: row.target as MenuItem['target'],
    titleAttribute: row.title_attribute,
    cssClasses: row.css_classes,
    description: row.description,
  };
}

/**
 * The menu with its items nested in order. Editors see every item; callers who see only published
 * content do not see items whose target is unpublished, trashed or gone, and such an item's children
 * take its place (docs/decisions/0018).
 */
export async function readMenu(db: Db, menu: store.MenuRow, view: View): Promise<MenuWithItems> {
  const rows = await store.listItems(db, menu.id);
  const links = await resolveLinks(db, rows);
  const nodes = rows.map((row) => ({ ...placementOf(row), row, link: links.get(row.id)! }));
  const items = nestShown<(typeof nodes)[number], MenuTreeItem>(
    nodes,
    (node) => view === 'editor' || node.link.public,
    (node, parentId, children) => ({ ...toMenuItem(node.row, node.link, view, parentId), children }),
  );
  return { ...toMenu(menu), items };
}

/** One item as read, after a write (by an editor: writers hold `content:write`, so Contributor and up). */
export async function readItem(db: Db, row: store.MenuItemRow, view: View): Promise<MenuItem> {
  const links = await resolveLinks(db, [row]);
  return toMenuItem(row, links.get(row.id)!, view, row.parent_id);
}
