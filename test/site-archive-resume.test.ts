import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreSiteArchive } from '../src/archive/restore.ts';
import { leftOutTables, recordTables, secretTables } from '../src/archive/tables.ts';
import { migrations } from '../src/db/migrate.ts';
import { testDatabaseKind } from './support/database.ts';
import type { TestApp } from './support/harness.ts';
import { until } from './support/poll.ts';
import { cleanEnv, cliPath, repoRoot, runCli } from './support/process.ts';
import { appOn, buildSite, exportTo, readArchive } from './support/site-archive.ts';

/**
 * `folio import-site` as the operator runs it (docs/decisions/0061): killed with SIGKILL halfway
 * through a large entry table and run again with the same archive, it resumes and ends with exactly
 * the source's records, no duplicates; the CLI's refusals are sentences.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-archive-resume-'));
const archive = path.join(dir, 'site.tar.gz');
/** The site before its bulk entries: what a site a later archive is merged into was restored from. */
const earlier = path.join(dir, 'earlier.tar.gz');
const entries = 20_000;
let source: TestApp & { mediaDir: string };
let target: TestApp & { mediaDir: string };
let bulkTable: string;

/** Many entries and their revisions, written straight into the tables (what the API would take minutes for). */
async function addBulkEntries(t: TestApp): Promise<string> {
  const collection = (await t.request('POST', '/_cms/api/schema/collections', { token: t.adminToken, body: { slug: 'bulk', label: 'Bulk' } })).body.data.item;
  expect((await t.request('POST', '/_cms/api/schema/collections/bulk/fields', { token: t.adminToken, body: { slug: 'title', label: 'Title', type: 'string' } })).status).toBe(201);
  const table = `ec_${String(collection.id).toLowerCase()}`;
  const now = new Date().toISOString();
  for (let start = 0; start < entries; start += 500) {
    const rows = Array.from({ length: 500 }, (_, index) => {
      const id = ulid();
      return { _id: id, _slug: `entry-${start + index}`, _locale: 'en', _group: id, _status: 'published', _version: 1, _created_at: now, _updated_at: now, _published_at: now, title: `Entry number ${start + index} with some words` };
    });
    await t.db.kysely.insertInto(table as never).values(rows as never).execute();
    await t.db.kysely
      .insertInto('revisions')
      .values(rows.map((row) => ({ id: ulid(), collection_id: collection.id, entry_id: row._id, data: JSON.stringify({ title: row.title }), slug: row._slug, author_id: null, created_at: now })))
      .execute();
  }
  return table;
}

/** The bulk entries the site has so far. */
async function bulkEntries(t: TestApp): Promise<number> {
  try {
    const row = await t.db.kysely.selectFrom(bulkTable as never).select(sql<number>`count(*)`.as('n')).executeTakeFirst();
    return Number((row as { n: number }).n);
  } catch {
    return 0; // The entry table is not made yet.
  }
}

function databaseUrl(t: TestApp): string {
  return t.config.database.kind === 'sqlite' ? `file:${t.config.database.path}` : t.database.url;
}

beforeAll(async () => {
  source = await appOn(testDatabaseKind);
  target = await appOn(testDatabaseKind, { withoutAdmin: true });
  await buildSite(source);
  await exportTo(source, earlier);
  bulkTable = await addBulkEntries(source);
  await exportTo(source, archive);
}, 180_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('folio import-site', () => {
  it('killed with SIGKILL halfway, resumes to the same result with no duplicates', async () => {
    const env = { DATABASE_URL: databaseUrl(target), MEDIA_DIR: target.mediaDir, LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [cliPath, 'import-site', archive], { cwd: repoRoot, env: cleanEnv(env), stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const count = () => bulkEntries(target);
    await until(async () => (await count()) > 0, 'the restore to be inside the bulk entries', 60_000);
    child.kill('SIGKILL');
    await exited;
    const halfway = await count();
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(entries);
    expect(await target.db.kysely.selectFrom('site_restores').select('last_member').executeTakeFirst()).toBeDefined();

    const again = await runCli(['import-site', archive], env, 120_000);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^resumed and restored \d+ tables, \d+ rows, 2 media files from /);
    expect(await count()).toBe(entries);
    expect(await target.db.kysely.selectFrom('site_restores').selectAll().execute()).toEqual([]);

    const restored = path.join(dir, 'restored.tar.gz');
    await exportTo(target, restored);
    const [before, after] = [await readArchive(archive), await readArchive(restored)];
    expect(after.names).toEqual(before.names);
    for (const member of Object.keys(before.records)) expect(after.records[member], member).toEqual(before.records[member]);
    expect(after.media).toEqual(before.media);
  }, 240_000);

  it('merging, killed with SIGKILL halfway, resumes to report the same conflicts and keep the same collections', async () => {
    // Two sites restored from the earlier archive (so they have its collections, ids included), into
    // which the later one is merged: once straight through, once killed inside the bulk entries and run again.
    const sites = [await appOn(testDatabaseKind, { withoutAdmin: true }), await appOn(testDatabaseKind, { withoutAdmin: true })];
    try {
      for (const site of sites) await restoreSiteArchive(site.systemContext(), earlier, { merge: false, knownMigrations: Object.keys(migrations(site.db.dialect)) });
      const envOf = (site: TestApp & { mediaDir: string }) => ({ DATABASE_URL: databaseUrl(site), MEDIA_DIR: site.mediaDir, LOG_LEVEL: 'warn' });
      const straight = await runCli(['import-site', '--merge', archive], envOf(sites[0]!), 120_000);
      expect(straight.code, straight.stderr).toBe(0);

      const killed = sites[1]!;
      const child = spawn(process.execPath, [cliPath, 'import-site', '--merge', archive], { cwd: repoRoot, env: cleanEnv(envOf(killed)), stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await until(async () => (await bulkEntries(killed)) > 0, 'the merge to be inside the bulk entries', 60_000);
      child.kill('SIGKILL');
      await exited;
      expect(await bulkEntries(killed)).toBeLessThan(entries);
      const resumed = await runCli(['import-site', '--merge', archive], envOf(killed), 120_000);
      expect(resumed.code, resumed.stderr).toBe(0);

      // The same report, line for line, but for the word "resumed" and the time taken.
      const report = (stdout: string) => stdout.replace(/^(resumed and )?restored (.*) in [\d.]+ s into .*$/m, 'restored $2');
      expect(resumed.stdout).toMatch(/^resumed and restored /);
      expect(straight.stdout).toMatch(/records of the archive were in the site already and were kept as they were:\n(.|\n)* {2}ec_[a-z0-9]+ all entries: the site has this collection already/);
      expect(report(resumed.stdout)).toBe(report(straight.stdout));
      const collections = async (site: TestApp) => (await site.db.kysely.selectFrom('collections').select(['id', 'slug', 'table_name']).orderBy('id').execute());
      expect(await collections(killed)).toEqual(await collections(sites[0]!));
      expect(await collections(killed)).toHaveLength(3);
      const fields = async (site: TestApp) => (await site.db.kysely.selectFrom('fields').select(['id', 'collection_id']).orderBy('id').execute());
      expect(await fields(killed)).toEqual(await fields(sites[0]!));
      expect(await bulkEntries(killed)).toBe(entries);
    } finally {
      for (const site of sites) await site.close();
    }
  }, 300_000);

  it('refuses a damaged archive and a site that is not empty in one sentence each', async () => {
    const cut = path.join(dir, 'cut.tar.gz');
    fs.writeFileSync(cut, fs.readFileSync(archive).subarray(0, 4000));
    const truncated = await runCli(['import-site', cut], { DATABASE_URL: `file:${path.join(dir, 'empty.db')}`, MEDIA_DIR: path.join(dir, 'media') });
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/^folio: VALIDATION_ERROR: The archive cannot be restored: records\/[a-z0-9_]+\.ndjson: the archive ends inside this member: it was cut short \(truncated\)\n$/);
    const full = await runCli(['import-site', archive], { DATABASE_URL: databaseUrl(source), MEDIA_DIR: path.join(dir, 'media') });
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/^folio: CONFLICT: The site is not empty \(it has collections, /);
  }, 120_000);
});

describe('folio export', () => {
  it('says the archive holds the webhook subscriptions’ signing secrets, which are in its records', async () => {
    const now = new Date().toISOString();
    const secret = `whsec_${ulid()}`;
    await source.db.kysely.insertInto('webhook_subscriptions').values({ id: ulid(), url: 'https://receiver.example/hook', events: '["entry.published"]', description: null, secret, active: 1, created_at: now, updated_at: now }).execute();
    const file = path.join(dir, 'with-webhooks.tar.gz');
    const result = await runCli(['export', file], { DATABASE_URL: databaseUrl(source), MEDIA_DIR: source.mediaDir }, 120_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('confidential: the archive holds the signing secrets of 1 webhook subscription in the clear (a receiver trusts what they sign): keep the file as you keep those secrets\n');
    expect((await readArchive(file)).records['records/webhook_subscriptions.ndjson']!.some((line) => line.includes(secret))).toBe(true);
  }, 120_000);
});

describe('the archive’s tables', () => {
  it('name every table a migrated database has, each in one list', async () => {
    const named = [...recordTables.filter((table) => typeof table !== 'string').map((table) => table.name), ...secretTables.map((table) => table.name), ...Object.keys(leftOutTables)];
    expect(new Set(named).size).toBe(named.length);
    const fresh = await appOn(testDatabaseKind, { withoutAdmin: true });
    try {
      const tables =
        fresh.db.dialect === 'postgres'
          ? (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(fresh.db.kysely)).rows
          : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'search_fts%'`.execute(fresh.db.kysely)).rows;
      expect(tables.map((table) => table.name).filter((name) => !named.includes(name)).sort()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
