import { Migrator, type Migration } from 'kysely/migration';
import type { Db } from './connection.ts';
import * as platform from './migrations/0001_platform.ts';

/**
 * Forward-only migrations, in code, in order. Kysely's migrator takes an advisory lock on PostgreSQL,
 * so when several processes start together exactly one migrates and the others wait, then find
 * nothing left to do.
 */
const migrations: Record<string, Migration> = {
  '0001_platform': platform,
};

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'folio_migrations',
    migrationLockTableName: 'folio_migrations_lock',
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`);
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
