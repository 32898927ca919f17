import { sql, type Kysely } from 'kysely';

/**
 * More of a site restore's state in its progress row (docs/decisions/0061), so that a restore
 * resumed after a kill, or one that fails, needs nothing the killed process held in memory:
 * - `member_rows`: the lines of the member in progress already written, in the same transaction as
 *   them; a resumed restore skips exactly those (a merge must not report its own rows as conflicts).
 * - `report`: JSON of what the restore has to say so far (counts, conflicts, notes) and the
 *   collections a merge found in the site already, so a resumed merge reports what an uninterrupted one
 *   would and merges nothing into those collections.
 * - `kept`: JSON of what the target had before (not on a merge): the keys of each table that had rows,
 *   and the rows themselves of the tables the archive's rows replace (settings, plugin states), so a
 *   failed restore puts the target back as it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_restores').addColumn('member_rows', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('site_restores').addColumn('report', 'text', (column) => column.notNull().defaultTo(sql`'{}'`)).execute();
  await db.schema.alterTable('site_restores').addColumn('kept', 'text', (column) => column.notNull().defaultTo(sql`'{}'`)).execute();
}
