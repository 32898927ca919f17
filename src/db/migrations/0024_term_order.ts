import type { Kysely } from 'kysely';

/**
 * Terms get a place among their siblings, so an editor can arrange a taxonomy's tree (issue 33):
 * lowest first, ties by slug, so every term already there keeps the order it had (by slug).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('terms').addColumn('sort_order', 'integer', (column) => column.notNull().defaultTo(0)).execute();
}
