import type { Kysely } from 'kysely';

/**
 * The newest jobs of a kind (the panel's import screen lists the recent imports, issue 33) read from
 * an index rather than the whole table, which keeps every finished job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('jobs_kind_created').on('jobs').columns(['kind', 'created_at']).execute();
}
