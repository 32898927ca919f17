import { sql } from 'kysely';
import type { Db } from '../../src/db/connection.ts';

/** Undoes migration 0008 (for tests that migrate a database as it was before it). */
export async function dropSearchTables(db: Db): Promise<void> {
  await db.kysely.schema.dropTable('search_title_keys').execute();
  if (db.dialect === 'sqlite') {
    for (const table of ['search_fts_stemmed', 'search_fts_plain']) await sql`drop table ${sql.table(table)}`.execute(db.kysely);
    await db.kysely.schema.dropTable('search_documents').execute();
    return;
  }
  await db.kysely.schema.dropTable('search_documents').execute();
  const { rows } = await sql<{ name: string }>`select cfgname as name from pg_ts_config where cfgnamespace = current_schema()::regnamespace and cfgname like 'folio\\_%'`.execute(db.kysely);
  for (const { name } of rows) await sql`drop text search configuration ${sql.id(name)}`.execute(db.kysely);
}
