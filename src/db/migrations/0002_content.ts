import type { Kysely } from 'kysely';

/**
 * Collections, their fields, revisions and the publishing schedule. Entries themselves live in one
 * table per collection, created at run time (src/db/entry-tables.ts, docs/decisions/0005).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('label_singular', 'text')
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('supports', 'text', (column) => column.notNull())
    .addColumn('table_name', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('fields')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('slug', 'text', (column) => column.notNull())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('required', 'integer', (column) => column.notNull())
    .addColumn('is_unique', 'integer', (column) => column.notNull())
    .addColumn('default_value', 'text')
    .addColumn('validation', 'text', (column) => column.notNull())
    .addColumn('options', 'text', (column) => column.notNull())
    .addColumn('searchable', 'integer', (column) => column.notNull())
    .addColumn('translatable', 'integer', (column) => column.notNull())
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('fields_collection_slug', ['collection_id', 'slug'])
    .execute();
  // Loading a collection reads its fields in display order: served in order, no sort.
  await db.schema.createIndex('fields_collection_order').on('fields').columns(['collection_id', 'sort_order']).execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (column) => column.notNull())
    .addColumn('data', 'text', (column) => column.notNull())
    .addColumn('slug', 'text', (column) => column.notNull())
    .addColumn('author_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('revisions_entry_id').on('revisions').columns(['entry_id', 'id']).execute();

  // One row per scheduled entry: the scheduler finds due work with one indexed query, whatever the
  // number of collections, and claims each row in the transaction that publishes it.
  await db.schema
    .createTable('scheduled_publications')
    .addColumn('entry_id', 'text', (column) => column.primaryKey())
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('due_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('scheduled_publications_due_at').on('scheduled_publications').column('due_at').execute();
  await db.schema.createIndex('scheduled_publications_collection_due_at').on('scheduled_publications').columns(['collection_id', 'due_at']).execute();
}
