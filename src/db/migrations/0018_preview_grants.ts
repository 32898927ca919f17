import type { Kysely } from 'kysely';

/**
 * Preview links (decisions/0046): each `POST /content/:collection/:id/preview-url` stores a grant that
 * lets whoever holds its secret read that one entry's draft until it expires. Only the secret's hash
 * is kept, as for sign-in links and direct uploads. No foreign key to the entry: entries live in a
 * table per collection, and a grant whose entry is gone simply finds nothing.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('preview_grants')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('secret_hash', 'text', (column) => column.notNull())
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  // Housekeeping deletes expired grants by this column.
  await db.schema.createIndex('preview_grants_expires_at').on('preview_grants').column('expires_at').execute();
}
