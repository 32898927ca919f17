import { sql, type Kysely } from 'kysely';

/**
 * Every entry table gets `_seo`: the entry's search and social metadata (title, description,
 * canonical URL, no-index, image) as JSON, null when none is set (docs/decisions/0059-seo-fields.md).
 * Only tables that exist: a collection row is written before its table is.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  const existing = new Set((await db.introspection.getTables()).map((table) => table.name));
  const collections = await db.selectFrom('collections').select('table_name').execute();
  for (const { table_name: table } of collections as { table_name: string }[]) {
    if (existing.has(table)) await sql`alter table ${sql.table(table)} add column _seo text`.execute(db);
  }
}
