import { sql, type Kysely } from 'kysely';

/**
 * The media library (src/media/): one row per stored file, the derived images made from it, and the
 * grants of direct uploads to local storage (single use, expiring).
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('storage_key', 'text', (column) => column.notNull().unique())
    .addColumn('filename', 'text', (column) => column.notNull())
    .addColumn('mime_type', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('alt', 'text')
    .addColumn('caption', 'text')
    .addColumn('content_hash', 'text')
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  // Newest first, keyset on (created_at, id); uploads look for the same bytes by hash.
  await db.schema.createIndex('media_created').on('media').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('media_content_hash').on('media').column('content_hash').where(sql.ref('content_hash'), 'is not', sql.lit(null)).execute();

  await db.schema
    .createTable('media_derivatives')
    .addColumn('media_id', 'text', (column) => column.notNull().references('media.id').onDelete('cascade'))
    .addColumn('variant', 'text', (column) => column.notNull())
    .addColumn('storage_key', 'text', (column) => column.notNull())
    .addColumn('mime_type', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('content_hash', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('media_derivatives_pk', ['media_id', 'variant'])
    .execute();

  await db.schema
    .createTable('media_upload_grants')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('secret_hash', 'text', (column) => column.notNull())
    .addColumn('storage_key', 'text', (column) => column.notNull().unique())
    .addColumn('mime_type', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
}
