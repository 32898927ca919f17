import type { Kysely } from 'kysely';

/**
 * A site archive's restore under way (docs/decisions/0061): which archive (its SHA-256), the last
 * member wholly restored, and the users the target had before, so a restore killed halfway resumes
 * after that member (inserting the member in progress only where absent) and a failed one removes
 * exactly what it wrote. At most one row; removed when the restore ends.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_restores')
    .addColumn('archive_sha256', 'text', (column) => column.primaryKey())
    .addColumn('last_member', 'integer', (column) => column.notNull())
    .addColumn('merge', 'integer', (column) => column.notNull())
    // JSON array of the ids of the users the target had when the restore started.
    .addColumn('kept_users', 'text', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
}
