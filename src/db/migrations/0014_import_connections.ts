import type { Kysely } from 'kysely';

/**
 * WordPress.com import (src/import/hosted/, decisions/0028): the pending OAuth connections (a state
 * bound to the admin who asked, used once) and, on an analysis of a live site, what the source reads
 * instead of an uploaded file (the site and its access token, removed with the analysis).
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('import_connections')
    // SHA-256 of the state sent to WordPress.com: the database never holds the state itself.
    .addColumn('state_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('site_url', 'text', (column) => column.notNull())
    .addColumn('redirect_uri', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('import_connections_expires').on('import_connections').column('expires_at').execute();
  // JSON of the source input ({type: 'oauth', url, accessToken}); null for an uploaded file.
  await db.schema.alterTable('import_analyses').addColumn('input', 'text').execute();
}
