import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreSiteArchive } from '../src/archive/restore.ts';
import { migrations } from '../src/db/migrate.ts';
import { testDatabaseKind } from './support/database.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';
import { startS3Server, type S3Server } from './support/s3.ts';
import { api, appOn, buildSite, exportTo, readArchive, readsOf, type SiteContent } from './support/site-archive.ts';

/**
 * A site archive restored into a Folio whose media storage is S3-compatible (issue 35,
 * docs/decisions/0061), on s3rver: the site's media files, exported from local storage, are in the
 * bucket under their keys and served byte-identical, and the REST API answers as the source's does;
 * exported again from S3, the archive holds the same files, also when made as a job (0063).
 */
const passphrase = 'correct horse battery staple';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-archive-s3-'));
const archive = path.join(dir, 'site.tar.gz');
let s3: S3Server;
let source: TestApp;
let target: TestApp;
let site: SiteContent;

beforeAll(async () => {
  s3 = await startS3Server();
  source = await appOn(testDatabaseKind);
  target = await createTestApp(s3.env, { withoutAdmin: true });
  site = await buildSite(source);
  await exportTo(source, archive, passphrase);
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a site restored into S3 media storage', () => {
  it('has every media file in the bucket, served byte-identical, and answers as its source', async () => {
    expect(target.storage.kind).toBe('s3');
    const result = await restoreSiteArchive(target.systemContext(), archive, { merge: false, passphrase, knownMigrations: Object.keys(migrations(target.db.dialect)) });
    expect(result.mediaFiles).toBe(2);
    expect(await s3.keys()).toEqual([site.fileKey, site.imageKey].sort());
    // The source's admin token came along with the encrypted secrets; the reads end with both media files' bytes.
    expect(await readsOf(target, source.adminToken, site)).toEqual(await readsOf(source, source.adminToken, site));
  }, 120_000);

  it('exports from S3 the same media files again', async () => {
    const again = path.join(dir, 'again.tar.gz');
    await exportTo(target, again);
    const [before, after] = [await readArchive(archive), await readArchive(again)];
    expect(after.manifest.source.storage).toBe('s3');
    expect(Object.keys(after.media)).toHaveLength(2);
    expect(after.media).toEqual(before.media);
  }, 120_000);

  it('makes the archive of an export job in the bucket, serves it from there, and removes it when deleted', async () => {
    const token = source.adminToken;
    const queued = await target.request('POST', `${api}/site/exports`, { token });
    expect(queued.status).toBe(202);
    await testJobRunner(target).runDue();
    const made = expectSuccess(await target.request('GET', `${api}/site/exports/${queued.body.data.item.id}`, { token })).item;
    expect(made.state).toBe('succeeded');
    expect((await s3.keys()).filter((key) => key.startsWith('exports/'))).toHaveLength(1);
    const download = await target.request('GET', made.archive.url, { token });
    expect(download.status).toBe(200);
    expect(createHash('sha256').update(download.bytes).digest('hex')).toBe(made.archive.sha256);
    const file = path.join(dir, 'from-job.tar.gz');
    fs.writeFileSync(file, download.bytes);
    expect((await readArchive(file)).media).toEqual((await readArchive(archive)).media);
    expectSuccess(await target.request('DELETE', `${api}/site/exports/${made.id}`, { token }));
    expect((await s3.keys()).filter((key) => key.startsWith('exports/'))).toEqual([]);
  }, 120_000);
});
