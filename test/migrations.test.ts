import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
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
    expect(applied.rows.map((row) => row.name)).toEqual(['0001_platform', '0002_content', '0003_reader_sort_indexes', '0004_jobs']);
  });

  it('is a no-op when everything is applied, and the tables work', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
    await db.kysely.insertInto('settings').values({ key: 'siteTitle', value: '"x"', updated_at: new Date().toISOString() }).execute();
    expect((await db.kysely.selectFrom('settings').selectAll().executeTakeFirst())?.value).toBe('"x"');
  });
});
