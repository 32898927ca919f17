import type { Kysely } from 'kysely';

/**
 * Taxonomies (src/taxonomies/): definitions, the collections each applies to, their terms (a tree in
 * hierarchical ones) and the terms each entry has.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('taxonomies')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('label_singular', 'text')
    .addColumn('hierarchical', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('taxonomy_collections')
    .addColumn('taxonomy_id', 'text', (column) => column.notNull().references('taxonomies.id').onDelete('cascade'))
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('taxonomy_collections_pk', ['taxonomy_id', 'collection_id'])
    .execute();
  await db.schema
    .createTable('terms')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('taxonomy_id', 'text', (column) => column.notNull().references('taxonomies.id').onDelete('cascade'))
    .addColumn('slug', 'text', (column) => column.notNull())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('parent_id', 'text', (column) => column.references('terms.id'))
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('terms_taxonomy_slug', ['taxonomy_id', 'slug'])
    .execute();
  await db.schema.createIndex('terms_parent').on('terms').column('parent_id').execute();
  // By term first: "the entries of a term" and the per-term counts; by entry: "the terms of an entry".
  await db.schema
    .createTable('entry_terms')
    .addColumn('term_id', 'text', (column) => column.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('taxonomy_id', 'text', (column) => column.notNull().references('taxonomies.id').onDelete('cascade'))
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('entry_terms_pk', ['term_id', 'entry_id'])
    .execute();
  await db.schema.createIndex('entry_terms_entry').on('entry_terms').columns(['entry_id', 'taxonomy_id']).execute();
}
