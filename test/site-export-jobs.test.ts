import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportKeptMs } from '../src/archive/export-job.ts';
import { restoreSiteArchive } from '../src/archive/restore.ts';
import { migrations } from '../src/db/migrate.ts';
import { claimJobs } from '../src/jobs/store.ts';
import { sweepExpired } from '../src/system/housekeeping.ts';
import { testDatabaseKind } from './support/database.ts';
import { expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';
import { api, appOn, buildSite, readArchive, readsOf, type SiteContent } from './support/site-archive.ts';

/**
 * The site export made as a job, for large sites (docs/decisions/0063): queued at once (202), run by
 * the server's job runner, followed by its progress, downloaded (Range, SHA-256 ETag) for a day, then
 * removed with its archive by housekeeping; and restored elsewhere as any archive is.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-export-jobs-'));
let source: TestApp & { mediaDir: string };
let target: TestApp;
let site: SiteContent;

beforeAll(async () => {
  source = await appOn(testDatabaseKind);
  target = await appOn(testDatabaseKind, { withoutAdmin: true });
  site = await buildSite(source);
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const start = (token: string | undefined = source.adminToken) => source.request('POST', `${api}/site/exports`, { token });
/** A new export, queued: 202 with the export. */
async function queue(): Promise<{ id: string }> {
  const response = await start();
  expect(response.status).toBe(202);
  expect(response.body.success).toBe(true);
  return response.body.data.item;
}
const read = (id: string) => source.request('GET', `${api}/site/exports/${id}`, { token: source.adminToken });
/** The archives kept in the source's storage. */
const storedArchives = () => (fs.existsSync(path.join(source.mediaDir, 'exports')) ? fs.readdirSync(path.join(source.mediaDir, 'exports')) : []);

describe('POST /site/exports', () => {
  it('queues the export, runs it as a job, and serves the archive it made, which restores the site', async () => {
    const queued = await start();
    expect(queued.status).toBe(202);
    const { item } = queued.body.data;
    expect(queued.headers.get('location')).toBe(`${api}/site/exports/${item.id}`);
    expect(item).toMatchObject({ state: 'queued', progress: { phase: 'queued', rows: 0, bytes: 0 }, archive: null, attempts: 0 });
    expectError(await source.request('GET', `${api}/site/exports/${item.id}/archive`, { token: source.adminToken }), 409, 'CONFLICT');

    expect(await testJobRunner(source).runDue()).toBe(1);
    const done = expectSuccess(await read(item.id)).item;
    expect(done).toMatchObject({ state: 'succeeded', attempts: 1, lastError: null, progress: { phase: 'done', tables: done.archive.tables, rows: done.archive.rows, mediaFiles: 2, bytes: done.archive.size } });
    expect(done.archive).toMatchObject({ url: `${api}/site/exports/${item.id}/archive`, mediaFiles: 2, missingMedia: 0 });
    expect(done.archive.filename).toMatch(/^folio-site-\d{8}T\d{6}\.\d{3}Z\.tar\.gz$/);
    expect(Date.parse(done.archive.expiresAt) - Date.parse(done.finishedAt)).toBe(exportKeptMs);

    const download = await source.request('GET', done.archive.url, { token: source.adminToken });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(download.headers.get('etag')).toBe(`"${done.archive.sha256}"`);
    expect(download.headers.get('content-disposition')).toContain(done.archive.filename);
    expect(download.bytes.length).toBe(done.archive.size);
    expect(createHash('sha256').update(download.bytes).digest('hex')).toBe(done.archive.sha256);
    const part = await source.request('GET', done.archive.url, { token: source.adminToken, headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.bytes).toEqual(download.bytes.subarray(100, 200));

    const file = path.join(dir, 'from-job.tar.gz');
    fs.writeFileSync(file, download.bytes);
    const contents = await readArchive(file);
    expect(contents.manifest.secrets).toBe(false);
    expect(contents.records['records/collections.ndjson']).toHaveLength(2);
    await restoreSiteArchive(target.systemContext(), file, { merge: false, knownMigrations: Object.keys(migrations(target.db.dialect)) });
    // Sign-in secrets stay behind: each side is read with a token of its own.
    const reader = await target.userWithToken(50, ['admin']);
    expect(await readsOf(target, reader.token, site)).toEqual(await readsOf(source, source.adminToken, site));

    const listed = expectSuccess(await source.request('GET', `${api}/site/exports`, { token: source.adminToken }));
    expect(listed.items.map((entry: { id: string }) => entry.id)).toContain(item.id);
  }, 120_000);

  it('keeps the archive a day: then it has expired (404), and housekeeping removes it and the export', async () => {
    const item = await queue();
    await testJobRunner(source).runDue();
    expect(storedArchives()).toHaveLength(2);
    source.clock.advance(exportKeptMs);
    expect(expectSuccess(await read(item.id)).item).toMatchObject({ state: 'expired', archive: null });
    const gone = await source.request('GET', `${api}/site/exports/${item.id}/archive`, { token: source.adminToken });
    expectError(gone, 404, 'NOT_FOUND');
    expect(gone.body.error.message).toContain('expired');
    await sweepExpired(source.systemContext());
    expectError(await read(item.id), 404, 'NOT_FOUND');
    expect(storedArchives()).toEqual([]);
  }, 60_000);

  it('deletes an export and its archive on request, but not while it runs', async () => {
    const made = await queue();
    await testJobRunner(source).runDue();
    expect(storedArchives()).toHaveLength(1);
    expectSuccess(await source.request('DELETE', `${api}/site/exports/${made.id}`, { token: source.adminToken }));
    expect(storedArchives()).toEqual([]);
    expectError(await read(made.id), 404, 'NOT_FOUND');

    const busy = await queue();
    // Another process has claimed it and is writing the archive.
    const now = source.clock.now();
    await claimJobs(source.db, { kinds: ['site.export'], owner: 'elsewhere', limit: 1, now: now.toISOString(), leaseExpiresAt: new Date(now.getTime() + 60_000).toISOString() });
    expect(expectSuccess(await read(busy.id)).item.state).toBe('running');
    expectError(await source.request('DELETE', `${api}/site/exports/${busy.id}`, { token: source.adminToken }), 409, 'CONFLICT');
    expectError(await source.request('GET', `${api}/site/exports/${busy.id}/archive`, { token: source.adminToken }), 409, 'CONFLICT');
  }, 60_000);

  it('refuses anyone but an admin with the admin scope, and answers bad input with 400 or 404', async () => {
    const editor = await source.userWithToken(40, ['content:read', 'schema:read']);
    const narrowAdmin = await source.userWithToken(50, ['content:read']);
    for (const [method, route] of [
      ['POST', '/site/exports'],
      ['GET', '/site/exports'],
      ['GET', '/site/exports/x'],
      ['GET', '/site/exports/x/archive'],
      ['DELETE', '/site/exports/x'],
    ] as const) {
      expectError(await source.request(method, `${api}${route}`), 401, 'UNAUTHORIZED');
      expectError(await source.request(method, `${api}${route}`, { token: editor.token }), 403, 'FORBIDDEN');
      expectError(await source.request(method, `${api}${route}`, { token: narrowAdmin.token }), 403, 'FORBIDDEN');
    }
    const badLimit = await source.request('GET', `${api}/site/exports?limit=0`, { token: source.adminToken });
    expectError(badLimit, 400, 'VALIDATION_ERROR');
    expect(issuePaths(badLimit)).toEqual(['limit']);
    const badBody = await source.request('POST', `${api}/site/exports`, { token: source.adminToken, body: { full: true } });
    expectError(badBody, 400, 'VALIDATION_ERROR');
    expect(issuePaths(badBody)).toEqual(['full']);
    expectError(await read('01JUNKNOWN0000000000000000'), 404, 'NOT_FOUND');
    expectError(await source.request('DELETE', `${api}/site/exports/01JUNKNOWN0000000000000000`, { token: source.adminToken }), 404, 'NOT_FOUND');
  });
});
