import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import * as platform from '../src/db/migrations/0001_platform.ts';
import * as content from '../src/db/migrations/0002_content.ts';
import { readerSortIndexes } from '../src/db/migrations/0003_reader_sort_indexes.ts';
import { findJob } from '../src/jobs/store.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';

const run = promisify(execFile);

describe('migrations', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openDatabase(loadConfig({ DATABASE_URL: database.url }).database);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  // A smoke test of the real start-up path: it shows several processes can migrate one fresh database
  // together and the result is applied once. The race window is too small to prove the lock by
  // itself; the lock is Kysely's advisory lock (PostgreSQL) and BEGIN IMMEDIATE (SQLite).
  it('lets several processes migrate a fresh database together, applying each migration once', async () => {
    const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
    const results = await Promise.all([1, 2, 3].map(() => run(process.execPath, ['bin/folio.mjs', 'migrate'], { env })));
    for (const result of results) expect(result.stderr).toContain('database is up to date');
    const applied = await sql<{ name: string }>`select name from folio_migrations`.execute(db.kysely);
    expect(applied.rows.map((row) => row.name)).toEqual(['0001_platform', '0002_content', '0003_reader_sort_indexes', '0004_jobs', '0005_media', '0006_taxonomies', '0007_site_structure', '0008_search', '0009_sign_in', '0010_oauth', '0011_plugins', '0012_import', '0013_import_media', '0014_import_connections', '0015_webhook_outbox_indexes', '0016_plugin_events']);
  });

  it('is a no-op when everything is applied, and the tables work', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
    await db.kysely.insertInto('settings').values({ key: 'siteTitle', value: '"x"', updated_at: new Date().toISOString() }).execute();
    expect((await db.kysely.selectFrom('settings').selectAll().executeTakeFirst())?.value).toBe('"x"');
  });

  it('moves the waiting scheduled publications of a database from before jobs into queued jobs', async () => {
    const older = await createTestDatabase();
    const olderDb = await openDatabase(loadConfig({ DATABASE_URL: older.url }).database);
    try {
      // As migrate.ts does: Kysely is told the schema, or it may find another test's bookkeeping tables.
      const schema = olderDb.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(olderDb.kysely)).rows[0]!.schema : undefined;
      const migrator = new Migrator({
        db: olderDb.kysely,
        ...(schema === undefined ? {} : { migrationTableSchema: schema }),
        provider: { getMigrations: async () => ({ '0001_platform': platform, '0002_content': content, '0003_reader_sort_indexes': readerSortIndexes(olderDb.dialect) }) },
        migrationTableName: 'folio_migrations',
        migrationLockTableName: 'folio_migrations_lock',
      });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const now = new Date().toISOString();
      await olderDb.kysely.insertInto('collections').values({ id: 'C1', slug: 'notes', label: 'Notes', supports: '[]', table_name: 'entries_notes', created_at: now, updated_at: now }).execute();
      await sql`insert into scheduled_publications (entry_id, collection_id, due_at) values ('E1', 'C1', '2030-01-01T09:00:00.000Z')`.execute(olderDb.kysely);

      expect(await migrateToLatest(olderDb)).toEqual(['0004_jobs', '0005_media', '0006_taxonomies', '0007_site_structure', '0008_search', '0009_sign_in', '0010_oauth', '0011_plugins', '0012_import', '0013_import_media', '0014_import_connections', '0015_webhook_outbox_indexes', '0016_plugin_events']);
      const [job] = await olderDb.kysely.selectFrom('jobs').select('id').execute();
      expect(await findJob(olderDb, job!.id)).toMatchObject({
        kind: 'content.publishScheduled',
        state: 'queued',
        runAt: '2030-01-01T09:00:00.000Z',
        payload: { collectionId: 'C1', entryId: 'E1', dueAt: '2030-01-01T09:00:00.000Z' },
        uniqueKey: 'content.publishScheduled:E1',
      });
    } finally {
      await olderDb.close();
      await older.drop();
    }
  });
});
