import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { lockRows, succeedsUnlessTaken } from '../db/dialect.ts';
import type { MenuItemsTable, MenusTable } from '../db/types.ts';

/** The SQL of menus and their items, and the lookups that resolve what items link to. */

export type MenuRow = Selectable<MenusTable>;
export type MenuItemRow = Selectable<MenuItemsTable>;

export async function listMenus(db: Db): Promise<MenuRow[]> {
  return db.kysely.selectFrom('menus').selectAll().orderBy('name').execute();
}

/** A menu by name; with `lock`, held until the transaction ends, so writes to its items take turns. */
export async function findMenu(db: Db, name: string, options: { lock?: boolean } = {}): Promise<MenuRow | undefined> {
  const query = db.kysely.selectFrom('menus').selectAll().where('name', '=', name);
  return (options.lock ? lockRows(db, query) : query).executeTakeFirst();
}

/** Adds a menu; false when the name is taken. */
export async function insertMenu(db: Db, row: MenuRow): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.insertInto('menus').values(row).execute());
}

/** Changes a menu; false when a new name is taken. */
export async function updateMenu(db: Db, id: string, changes: Partial<Pick<MenuRow, 'name' | 'label' | 'updated_at'>>): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.updateTable('menus').set(changes).where('id', '=', id).execute());
}

/** Removes a menu with its items (in one transaction, the caller's). */
export async function deleteMenu(db: Db, id: string): Promise<void> {
  // Parents point at items of the same menu: cleared first, so the rows can go in any order.
  await db.kysely.updateTable('menu_items').set({ parent_id: null }).where('menu_id', '=', id).execute();
  await db.kysely.deleteFrom('menu_items').where('menu_id', '=', id).execute();
  await db.kysely.deleteFrom('menus').where('id', '=', id).execute();
}

/** Every item of a menu, in no particular order (the tree orders them); served by `menu_items_menu_order`. */
export async function listItems(db: Db, menuId: string): Promise<MenuItemRow[]> {
  return db.kysely.selectFrom('menu_items').selectAll().where('menu_id', '=', menuId).execute();
}

export async function insertItem(db: Db, row: MenuItemRow): Promise<void> {
  await db.kysely.insertInto('menu_items').values(row).execute();
}

export async function updateItem(db: Db, id: string, changes: Partial<Omit<MenuItemRow, 'id' | 'menu_id' | 'created_at'>>): Promise<void> {
  await db.kysely.updateTable('menu_items').set(changes).where('id', '=', id).execute();
}

/** Removes an item; the caller has moved its children first. */
export async function deleteItem(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('menu_items').where('id', '=', id).execute();
}

/** The entry tables and URL patterns of the collections named, in one statement. */
export async function findCollections(db: Db, slugs: readonly string[]): Promise<{ slug: string; table_name: string; url_pattern: string | null }[]> {
  if (slugs.length === 0) return [];
  return db.kysely.selectFrom('collections').select(['slug', 'table_name', 'url_pattern']).where('slug', 'in', [...slugs]).execute();
}

export interface TermLinkRow {
  id: string;
  slug: string;
  taxonomy: string;
  url_pattern: string | null;
}

/** Terms by id with their taxonomy's name and URL pattern, in one statement. */
export async function findTermLinks(db: Db, ids: readonly string[]): Promise<TermLinkRow[]> {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('terms')
    .innerJoin('taxonomies', 'taxonomies.id', 'terms.taxonomy_id')
    .select(['terms.id', 'terms.slug', 'taxonomies.name as taxonomy', 'taxonomies.url_pattern'])
    .where('terms.id', 'in', [...ids])
    .execute();
}
