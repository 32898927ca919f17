import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreSiteArchive } from '../src/archive/restore.ts';
import { migrations } from '../src/db/migrate.ts';
import { testDatabaseKind } from './support/database.ts';
import { appOn, buildSite, exportTo, readArchive, readsOf, type SiteContent } from './support/site-archive.ts';
import type { TestApp } from './support/harness.ts';

/**
 * The site archive's round trip (docs/decisions/0061): a site with every field type, life-cycle state
 * and structure is exported, restored into an empty app (on the postgres project: from SQLite into
 * PostgreSQL and back), and exported again; both archives hold the same records, ids included, and
 * the REST API answers the same reads on both.
 */
const pairs: ['sqlite' | 'postgres', 'sqlite' | 'postgres'][] = testDatabaseKind === 'postgres' ? [['sqlite', 'postgres'], ['postgres', 'sqlite']] : [['sqlite', 'sqlite']];
const passphrase = 'correct horse battery staple';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-site-archive-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(pairs)('a site exported from %s and restored into %s', (from, to) => {
  let source: TestApp;
  let target: TestApp;
  let site: SiteContent;
  const first = path.join(dir, `${from}-${to}-first.tar.gz`);
  const second = path.join(dir, `${from}-${to}-second.tar.gz`);

  beforeAll(async () => {
    source = await appOn(from);
    target = await appOn(to, { withoutAdmin: true });
    site = await buildSite(source);
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('restores every record, ids included, and exports them again the same', async () => {
    await exportTo(source, first, passphrase);
    const result = await restoreSiteArchive(target.systemContext(), first, { merge: false, passphrase, knownMigrations: Object.keys(migrations(target.db.dialect)) });
    expect(result.resumed).toBe(false);
    expect(result.mediaFiles).toBe(2);
    expect(result.conflictCount).toBe(0);
    await exportTo(target, second, passphrase);
    const [before, after] = [await readArchive(first, passphrase), await readArchive(second, passphrase)];
    expect(after.names).toEqual(before.names);
    expect(after.manifest.source.database).toBe(to);
    expect({ ...after.manifest, createdAt: '', source: undefined, encryption: undefined }).toEqual({ ...before.manifest, createdAt: '', source: undefined, encryption: undefined });
    for (const member of Object.keys(before.records)) expect(after.records[member], member).toEqual(before.records[member]);
    expect(after.media).toEqual(before.media);
    expect(before.records['records/users.ndjson']).toHaveLength(2);
    expect(before.records.secrets!.some((line) => line.startsWith('{"table":"api_tokens"'))).toBe(true);
  }, 120_000);

  it('answers the same reads: entries in every state, lists, translations, terms, menus, search, media bytes', async () => {
    // The source's admin token came along with the encrypted secrets.
    expect(await readsOf(target, source.adminToken, site)).toEqual(await readsOf(source, source.adminToken, site));
  }, 60_000);

  it('queues the scheduled entry’s publication again', async () => {
    const job = await target.db.kysely.selectFrom('jobs').select(['kind', 'payload']).where('kind', '=', 'content.publishScheduled').executeTakeFirst();
    expect(JSON.parse(job!.payload)).toMatchObject({ entryId: site.scheduledId });
  });
});
