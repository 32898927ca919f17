import { sql, type Kysely } from 'kysely';

/**
 * WordPress import (src/import/, decisions/0024): stored analyses of uploaded export files, the map
 * from source ids to what an import made of them (its checkpoint, and what keeps a re-run from
 * duplicating anything), the report's lines, and bylines with the entries' ordered credits.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('import_analyses')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('source', 'text', (column) => column.notNull())
    // The uploaded file in media storage; removed with the analysis.
    .addColumn('storage_key', 'text', (column) => column.notNull())
    .addColumn('filename', 'text', (column) => column.notNull())
    .addColumn('size', 'integer', (column) => column.notNull())
    // Names the site the file came from: what re-runs of the same source share.
    .addColumn('source_key', 'text', (column) => column.notNull())
    .addColumn('summary', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('import_analyses_expires').on('import_analyses').column('expires_at').execute();

  await db.schema
    .createTable('import_items')
    .addColumn('source_key', 'text', (column) => column.notNull())
    // author, term:<taxonomy>, post, section, menu, menu_item
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('source_id', 'text', (column) => column.notNull())
    .addColumn('target_id', 'text', (column) => column.notNull())
    .addColumn('collection', 'text')
    // What a later pass still needs: a post's parent and featured image, a menu item's link (JSON).
    .addColumn('data', 'text')
    .addColumn('job_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('import_items_pk', ['source_key', 'kind', 'source_id'])
    .execute();
  await db.schema.createIndex('import_items_job').on('import_items').columns(['job_id', 'collection']).execute();

  await db.schema
    .createTable('import_notes')
    .addColumn('job_id', 'text', (column) => column.notNull())
    // warning, skipped, failed
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('source_id', 'text', (column) => column.notNull())
    .addColumn('title', 'text')
    .addColumn('message', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('import_notes_job').on('import_notes').columns(['job_id', 'kind']).execute();

  await db.schema
    .createTable('bylines')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('email', 'text')
    // A byline linked to a user (import.md §2 rule 2); null for a guest byline.
    .addColumn('user_id', 'text', (column) => column.unique().references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  // Every entry table gets the ordered byline credits (JSON array of byline ids; the first is primary).
  // (Only tables that exist: a collection row is written before its table is.)
  const existing = new Set((await db.introspection.getTables()).map((table) => table.name));
  const collections = await db.selectFrom('collections').select('table_name').execute();
  for (const { table_name: table } of collections as { table_name: string }[]) {
    if (!existing.has(table)) continue;
    await sql`alter table ${sql.table(table)} add column _bylines text`.execute(db);
  }
}
