import type { Kysely } from 'kysely';

/**
 * Moves into this database (docs/decisions/0062): one row per source site copied here by `folio move`,
 * so a catch-up knows the target holds that site's copy, and refuses a target no move filled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_moves')
    // Where the site came from, as `folio move` names it (a file path, or a URL without its password).
    .addColumn('source', 'text', (column) => column.primaryKey())
    .addColumn('copied_at', 'text', (column) => column.notNull())
    .addColumn('caught_up_at', 'text')
    .execute();
}
