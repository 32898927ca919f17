import { sql, type Kysely } from 'kysely';
import { ulid } from 'ulid';

/**
 * Durable background jobs (src/jobs/), and scheduled publication moved onto them: each waiting row of
 * `scheduled_publications` becomes a queued job due at the same time (docs/decisions/0013-jobs.md).
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('run_at', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('max_attempts', 'integer', (column) => column.notNull())
    .addColumn('unique_key', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('heartbeat_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('progress', 'text')
    .addColumn('result', 'text')
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  // Claiming reads only waiting jobs and expired leases; finished jobs pile up outside these indexes.
  await db.schema.createIndex('jobs_queued_run_at').on('jobs').column('run_at').where(sql.ref('state'), '=', sql.lit('queued')).execute();
  await db.schema.createIndex('jobs_running_lease').on('jobs').column('lease_expires_at').where(sql.ref('state'), '=', sql.lit('running')).execute();
  // At most one waiting job per key; a running one may have a successor waiting.
  await db.schema.createIndex('jobs_queued_unique_key').on('jobs').column('unique_key').unique().where(sql.ref('state'), '=', sql.lit('queued')).execute();

  const now = new Date().toISOString();
  const schedule = await db.selectFrom('scheduled_publications').selectAll().execute();
  for (const row of schedule as { entry_id: string; collection_id: string; due_at: string }[]) {
    await db
      .insertInto('jobs')
      .values({
        id: ulid(),
        kind: 'content.publishScheduled',
        payload: JSON.stringify({ collectionId: row.collection_id, entryId: row.entry_id, dueAt: row.due_at }),
        state: 'queued',
        run_at: row.due_at,
        attempts: 0,
        max_attempts: 5,
        unique_key: `content.publishScheduled:${row.entry_id}`,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  await db.schema.dropTable('scheduled_publications').execute();
}
