import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { lockRows, succeedsUnlessTaken } from '../db/dialect.ts';
import type { WidgetAreasTable, WidgetsTable } from '../db/types.ts';

/** The SQL of widget areas and their widgets, and the look-ups of what widgets show. */

export type AreaRow = Selectable<WidgetAreasTable>;
export type WidgetRow = Selectable<WidgetsTable>;

/**
 * A widget with what it shows as it is now: the section's title and content, the menu's label. The
 * target's id is null when no section or menu of that name exists (any more).
 */
export type ResolvedWidgetRow = WidgetRow & {
  target_section_id: string | null;
  target_section_title: string | null;
  target_section_content: string | null;
  target_menu_id: string | null;
  target_menu_label: string | null;
};

/** Every area by name, each with its number of widgets, in one statement. */
export async function listAreas(db: Db): Promise<(AreaRow & { widget_count: number })[]> {
  const rows = await db.kysely
    .selectFrom('widget_areas')
    .selectAll('widget_areas')
    .select((eb) => eb.selectFrom('widgets').whereRef('widgets.area_id', '=', 'widget_areas.id').select(eb.fn.countAll<number | string>().as('count')).as('widget_count'))
    .orderBy('name')
    .execute();
  // PostgreSQL's count is a bigint, which arrives as a string.
  return rows.map((row) => ({ ...row, widget_count: Number(row.widget_count) }));
}

/** An area by name; `lock` holds it until the transaction ends, so writes to its widgets take turns. */
export async function findArea(db: Db, name: string, options: { lock?: boolean } = {}): Promise<AreaRow | undefined> {
  const query = db.kysely.selectFrom('widget_areas').selectAll().where('name', '=', name);
  return (options.lock ? lockRows(db, query) : query).executeTakeFirst();
}

/** Adds an area; false when the name is taken. */
export async function insertArea(db: Db, row: AreaRow): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.insertInto('widget_areas').values(row).execute());
}

export async function updateArea(db: Db, id: string, changes: Partial<Pick<AreaRow, 'label' | 'description' | 'updated_at'>>): Promise<void> {
  await db.kysely.updateTable('widget_areas').set(changes).where('id', '=', id).execute();
}

/** Removes the area; its widgets go with it through their foreign key (ON DELETE CASCADE). */
export async function deleteArea(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('widget_areas').where('id', '=', id).execute();
}

/**
 * The area's widgets in order, each with its section or menu as it is now: one statement for the
 * whole area, however many widgets show sections or menus.
 */
export async function listResolvedWidgets(db: Db, areaId: string, widgetId?: string): Promise<ResolvedWidgetRow[]> {
  let query = db.kysely
    .selectFrom('widgets')
    .leftJoin('sections', 'sections.slug', 'widgets.section_slug')
    .leftJoin('menus', 'menus.name', 'widgets.menu_name')
    .selectAll('widgets')
    .select([
      'sections.id as target_section_id',
      'sections.title as target_section_title',
      'sections.content as target_section_content',
      'menus.id as target_menu_id',
      'menus.label as target_menu_label',
    ])
    .where('widgets.area_id', '=', areaId);
  if (widgetId !== undefined) query = query.where('widgets.id', '=', widgetId);
  return query.orderBy('widgets.sort_order').orderBy('widgets.id').execute();
}

/** The area's widget ids in order. */
export async function listWidgetIds(db: Db, areaId: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom('widgets').select('id').where('area_id', '=', areaId).orderBy('sort_order').orderBy('id').execute();
  return rows.map((row) => row.id);
}

export async function findWidget(db: Db, areaId: string, id: string): Promise<WidgetRow | undefined> {
  return db.kysely.selectFrom('widgets').selectAll().where('area_id', '=', areaId).where('id', '=', id).executeTakeFirst();
}

/** The position after the area's last widget. */
export async function nextSortOrder(db: Db, areaId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('widgets')
    .select((eb) => eb.fn.max('sort_order').as('last'))
    .where('area_id', '=', areaId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

export async function insertWidget(db: Db, row: WidgetRow): Promise<void> {
  await db.kysely.insertInto('widgets').values(row).execute();
}

export async function updateWidget(db: Db, id: string, changes: Partial<Pick<WidgetRow, 'title' | 'content' | 'menu_name' | 'section_slug' | 'updated_at'>>): Promise<void> {
  await db.kysely.updateTable('widgets').set(changes).where('id', '=', id).execute();
}

/** Removes a widget and closes the gap, so positions stay 0, 1, 2… */
export async function deleteWidget(db: Db, widget: WidgetRow): Promise<void> {
  await db.kysely.deleteFrom('widgets').where('id', '=', widget.id).execute();
  await db.kysely
    .updateTable('widgets')
    .set((eb) => ({ sort_order: eb('sort_order', '-', 1) }))
    .where('area_id', '=', widget.area_id)
    .where('sort_order', '>', widget.sort_order)
    .execute();
}

/** Puts the area's widgets in this order (positions 0, 1, 2…) in one statement. */
export async function setWidgetOrder(db: Db, areaId: string, orderedIds: readonly string[]): Promise<void> {
  if (orderedIds.length === 0) return;
  // Positions are literals the server made (integers), so PostgreSQL types the CASE as an integer.
  const position = sql<number>`case ${sql.ref('id')} ${sql.join(
    orderedIds.map((id, index) => sql`when ${id} then ${sql.lit(index)}`),
    sql` `,
  )} end`;
  await db.kysely.updateTable('widgets').set({ sort_order: position }).where('area_id', '=', areaId).execute();
}

/** Whether a menu of that name exists (the menus table, read without depending on the menus module). */
export async function menuExists(db: Db, name: string): Promise<boolean> {
  return (await db.kysely.selectFrom('menus').select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
}

/** Widgets showing a section follow it to its new slug (the section's rename calls this in its transaction). */
export async function renameSectionReferences(db: Db, from: string, to: string): Promise<void> {
  await db.kysely.updateTable('widgets').set({ section_slug: to }).where('section_slug', '=', from).execute();
}

/** Widgets showing a menu follow it to its new name (the menu's rename calls this in its transaction). */
export async function renameMenuReferences(db: Db, from: string, to: string): Promise<void> {
  await db.kysely.updateTable('widgets').set({ menu_name: to }).where('menu_name', '=', from).execute();
}
