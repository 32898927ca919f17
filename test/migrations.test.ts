import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { migrateToLatest, migrations } from '../src/db/migrate.ts';
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
    expect(applied.rows.map((row) => row.name)).toEqual(['0001_platform', '0002_content', '0003_reader_sort_indexes', '0004_jobs', '0005_media', '0006_taxonomies', '0007_site_structure', '0008_search', '0009_sign_in', '0010_oauth', '0011_plugins', '0012_import', '0013_import_media', '0014_import_connections', '0015_webhook_outbox_indexes', '0016_plugin_events', '0017_plugin_event_data', '0018_preview_grants', '0019_media_usage', '0020_change_notifications', '0021_search_filter_index', '0022_user_last_sign_in', '0023_webhook_response_excerpt', '0024_term_order', '0025_jobs_by_kind', '0026_redirects', '0027_comments', '0028_entry_seo', '0029_comment_notifications', '0030_site_restores', '0031_site_restore_state', '0032_site_moves']);
  });

  it('is a no-op when everything is applied, and the tables work', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
    await db.kysely.insertInto('settings').values({ key: 'siteTitle', value: '"x"', updated_at: new Date().toISOString() }).execute();
    expect((await db.kysely.selectFrom('settings').selectAll().executeTakeFirst())?.value).toBe('"x"');
  });

  /** A database of its own, migrated as Folio was up to `last`; dropped after `work`. */
  async function withOlderDatabase(last: string, work: (olderDb: Db) => Promise<void>): Promise<void> {
    const older = await createTestDatabase();
    const olderDb = await openDatabase(loadConfig({ DATABASE_URL: older.url }).database);
    try {
      // As migrate.ts does: Kysely is told the schema, or it may find another test's bookkeeping tables.
      const schema = olderDb.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(olderDb.kysely)).rows[0]!.schema : undefined;
      const all = Object.entries(migrations(olderDb.dialect));
      const migrator = new Migrator({
        db: olderDb.kysely,
        ...(schema === undefined ? {} : { migrationTableSchema: schema }),
        provider: { getMigrations: async () => Object.fromEntries(all.slice(0, all.findIndex(([name]) => name === last) + 1)) },
        migrationTableName: 'folio_migrations',
        migrationLockTableName: 'folio_migrations_lock',
      });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      await work(olderDb);
    } finally {
      await olderDb.close();
      await older.drop();
    }
  }

  it('moves the waiting scheduled publications of a database from before jobs into queued jobs', async () => {
    await withOlderDatabase('0003_reader_sort_indexes', async (olderDb) => {
      const now = new Date().toISOString();
      await olderDb.kysely.insertInto('collections').values({ id: 'C1', slug: 'notes', label: 'Notes', supports: '[]', table_name: 'entries_notes', created_at: now, updated_at: now }).execute();
      await sql`insert into scheduled_publications (entry_id, collection_id, due_at) values ('E1', 'C1', '2030-01-01T09:00:00.000Z')`.execute(olderDb.kysely);

      expect(await migrateToLatest(olderDb)).toEqual(['0004_jobs', '0005_media', '0006_taxonomies', '0007_site_structure', '0008_search', '0009_sign_in', '0010_oauth', '0011_plugins', '0012_import', '0013_import_media', '0014_import_connections', '0015_webhook_outbox_indexes', '0016_plugin_events', '0017_plugin_event_data', '0018_preview_grants', '0019_media_usage', '0020_change_notifications', '0021_search_filter_index', '0022_user_last_sign_in', '0023_webhook_response_excerpt', '0024_term_order', '0025_jobs_by_kind', '0026_redirects', '0027_comments', '0028_entry_seo', '0029_comment_notifications', '0030_site_restores', '0031_site_restore_state', '0032_site_moves']);
      const [job] = await olderDb.kysely.selectFrom('jobs').select('id').execute();
      expect(await findJob(olderDb, job!.id)).toMatchObject({
        kind: 'content.publishScheduled',
        state: 'queued',
        runAt: '2030-01-01T09:00:00.000Z',
        payload: { collectionId: 'C1', entryId: 'E1', dueAt: '2030-01-01T09:00:00.000Z' },
        uniqueKey: 'content.publishScheduled:E1',
      });
    });
  });

  it("asks for the entry values of the events that a site's active webhook subscriptions listen to", async () => {
    await withOlderDatabase('0016_plugin_events', async (olderDb) => {
      const now = new Date().toISOString();
      const subscription = (id: string, events: string[], active: number) => ({ id, url: 'https://example.com/hook', events: JSON.stringify(events), description: null, secret: 'whsec_x', active, created_at: now, updated_at: now });
      await olderDb.kysely
        .insertInto('webhook_subscriptions')
        .values([subscription('S1', ['content.saved'], 1), subscription('S2', ['*'], 0), subscription('S3', ['media.uploaded', 'content.saved'], 1)])
        .execute();
      // Switched off by an admin: the switch stays as it was.
      await olderDb.kysely.insertInto('plugin_states').values({ plugin_id: 'webhooks', enabled: 0, settings: null, updated_at: now }).execute();
      expect(await migrateToLatest(olderDb)).toEqual(['0017_plugin_event_data', '0018_preview_grants', '0019_media_usage', '0020_change_notifications', '0021_search_filter_index', '0022_user_last_sign_in', '0023_webhook_response_excerpt', '0024_term_order', '0025_jobs_by_kind', '0026_redirects', '0027_comments', '0028_entry_seo', '0029_comment_notifications', '0030_site_restores', '0031_site_restore_state', '0032_site_moves']);
      const row = await olderDb.kysely.selectFrom('plugin_states').select(['enabled', 'event_data']).where('plugin_id', '=', 'webhooks').executeTakeFirstOrThrow();
      expect(row).toEqual({ enabled: 0, event_data: JSON.stringify(['content.saved', 'media.uploaded']) });
    });
  });
});
