import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { api, appOn, buildSite, exportTo, readArchive, type SiteContent } from './support/site-archive.ts';

/**
 * The site archive's endpoints and what they refuse (docs/decisions/0061): who may export and import;
 * a truncated, corrupted, foreign or newer archive (400 naming the member, nothing left behind); a
 * site that is not empty (409, unless merge=true: then each conflict is reported); a wrong passphrase.
 */
const passphrase = 'correct horse battery staple';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-archive-refusals-'));
const archive = path.join(dir, 'site.tar.gz');
let source: TestApp;
let target: TestApp;
let site: SiteContent;
let bytes: Buffer;

beforeAll(async () => {
  source = await appOn(testDatabaseKind);
  target = await appOn(testDatabaseKind);
  site = await buildSite(source);
  await exportTo(source, archive, passphrase);
  bytes = fs.readFileSync(archive);
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const upload = (t: TestApp, body: Uint8Array, options: { token?: string | null; query?: string; headers?: Record<string, string> } = {}) =>
  t.request('POST', `${api}/site/import${options.query ?? ''}`, {
    token: options.token === null ? undefined : (options.token ?? t.adminToken),
    rawBody: body,
    headers: { 'content-type': 'application/gzip', ...options.headers },
  });

/** A .tar.gz of the given members, as another program (or a newer Folio) might write one. */
async function tarGz(members: { name: string; text: string }[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const member of members) pack.entry({ name: member.name }, member.text);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/** The target still holds nothing of the archive: no collection, no restore under way, no entry table. */
async function expectNothingRestored(): Promise<void> {
  expect(await target.db.kysely.selectFrom('collections').select('id').execute()).toEqual([]);
  expect(await target.db.kysely.selectFrom('site_restores').selectAll().execute()).toEqual([]);
  expect(await target.db.kysely.selectFrom('media').select('id').execute()).toEqual([]);
}

describe('GET /site/export', () => {
  it('streams the archive to an admin, and refuses anyone else', async () => {
    const response = await source.request('GET', `${api}/site/export`, { token: source.adminToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename\*=UTF-8''folio-site-\d{8}T\d{6}\.\d{3}Z\.tar\.gz$/);
    const file = path.join(dir, 'downloaded.tar.gz');
    fs.writeFileSync(file, response.bytes);
    const contents = await readArchive(file);
    expect(contents.manifest.secrets).toBe(false);
    expect(contents.names.at(-1)).toBe('summary.json');
    expect(contents.records['records/collections.ndjson']).toHaveLength(2);

    expectError(await source.request('GET', `${api}/site/export`), 401, 'UNAUTHORIZED');
    const editor = await source.userWithToken(40, ['content:read', 'schema:read']);
    expectError(await source.request('GET', `${api}/site/export`, { token: editor.token }), 403, 'FORBIDDEN');
    const narrowAdmin = await source.userWithToken(50, ['content:read']);
    expectError(await source.request('GET', `${api}/site/export`, { token: narrowAdmin.token }), 403, 'FORBIDDEN');
  });
});

describe('POST /site/import refuses', () => {
  it('anyone but an admin', async () => {
    expectError(await upload(target, bytes, { token: null }), 401, 'UNAUTHORIZED');
    const editor = await target.userWithToken(40, ['content:read', 'content:write']);
    expectError(await upload(target, bytes, { token: editor.token }), 403, 'FORBIDDEN');
    await expectNothingRestored();
  });

  it('a truncated archive, naming the member it ends in', async () => {
    const error = expectError(await upload(target, bytes.subarray(0, Math.floor(bytes.length * 0.6))), 400, 'VALIDATION_ERROR');
    // Where 60% of the compressed bytes falls depends on how each member compressed (media are stored): a member of rows, secrets or files.
    expect(error.details.issues[0].path).toMatch(/^(records\/|media\/|secrets\.ndjson\.enc$)/);
    expect(error.message).toMatch(/cut short \(truncated\)/);
    await expectNothingRestored();
  });

  it('an archive with a changed byte', async () => {
    const damaged = Buffer.from(bytes);
    damaged[Math.floor(damaged.length / 2)]! ^= 0x5a;
    const error = expectError(await upload(target, damaged), 400, 'VALIDATION_ERROR');
    expect(error.message).toMatch(/damaged|changed|cut short/);
    expect(error.details.issues[0].path).not.toBe('');
    await expectNothingRestored();
  });

  it('a file that is not a site archive', async () => {
    const notGzip = expectError(await upload(target, new TextEncoder().encode('name,email\nada,ada@example.com\n')), 400, 'VALIDATION_ERROR');
    expect(notGzip.details.issues).toEqual([{ path: 'archive', message: 'this is not a gzip-compressed tar archive, so not a Folio site archive' }]);
    const noManifest = expectError(await upload(target, await tarGz([{ name: 'notes.txt', text: 'hello' }])), 400, 'VALIDATION_ERROR');
    expect(noManifest.details.issues).toEqual([{ path: 'notes.txt', message: 'the first member is notes.txt, not manifest.json: this is not a Folio site archive' }]);
    await expectNothingRestored();
  });

  it('an archive from a newer Folio, naming both format versions', async () => {
    const newer = await tarGz([{ name: 'manifest.json', text: JSON.stringify({ format: 'folio-site-archive', formatVersion: 2, folioVersion: '9.0.0' }) }]);
    const error = expectError(await upload(target, newer), 400, 'VALIDATION_ERROR');
    expect(error.details.issues[0].path).toBe('manifest.json');
    expect(error.message).toContain('format version 2, made by Folio 9.0.0');
    expect(error.message).toContain('reads format version 1 and older');
    await expectNothingRestored();
  });

  it('a wrong passphrase, without a word of the secrets', async () => {
    const response = await upload(target, bytes, { headers: { 'folio-archive-passphrase': 'not the passphrase' } });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    expect(error.details.issues[0].path).toBe('passphrase');
    expect(error.message).toContain('the passphrase does not open the encrypted secrets');
    expect(response.bytes.toString('utf8')).not.toMatch(/token_hash|api_tokens|ec_pat_/);
    await expectNothingRestored();
  });

  it('a site that is not empty, unless asked to merge: then each conflict is reported', async () => {
    const error = expectError(await upload(source, bytes), 409, 'CONFLICT');
    expect(error.message).toMatch(/^The site is not empty \(it has collections/);
    const merged = expectSuccess(await upload(source, bytes, { query: '?merge=true' }));
    expect(merged.rows).toBe(0);
    expect(merged.conflictCount).toBeGreaterThan(10);
    expect(merged.conflicts).toContainEqual({ table: 'collections', key: expect.any(String) });
    expect(merged.conflicts).toContainEqual({ table: 'media', key: expect.any(String) });
  });
});

describe('POST /site/import', () => {
  it('restores the archive into an empty site, with its secrets when given the passphrase', async () => {
    const result = expectSuccess(await upload(target, bytes, { headers: { 'folio-archive-passphrase': passphrase } }));
    expect(result).toMatchObject({ resumed: false, mediaFiles: 2, conflictCount: 0 });
    expect(result.rows).toBeGreaterThan(20);
    // The target's own admin stays; the source's came along, with its token.
    expectSuccess(await target.request('GET', `${api}/content/posts/${site.postId}`, { token: target.adminToken }));
    const entry = expectSuccess(await target.request('GET', `${api}/content/posts/${site.postId}`, { token: source.adminToken })).item;
    expect(entry.data.title).toBe('Every field');
  });
});
