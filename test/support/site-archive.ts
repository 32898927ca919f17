import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'kysely';
import tar from 'tar-stream';
import { writeSiteArchive } from '../../src/archive/export.ts';
import { Manifest } from '../../src/archive/format.ts';
import { decryptingStream, deriveKey } from '../../src/archive/secrets.ts';
import { createCollection, createEntry, expectCreated } from './content.ts';
import { testDatabaseKind } from './database.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './harness.ts';
import { tinyPng, uploadMedia } from './media.ts';

/** Site archives in tests (docs/decisions/0061): apps on either engine, a site with everything, archives read back. */

export const api = '/_cms/api';

/** An app on `kind` with media of its own; on the other engine than the project's, a SQLite file of its own. */
export async function appOn(kind: 'sqlite' | 'postgres', options: TestAppOptions = {}): Promise<TestApp & { mediaDir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-archive-app-'));
  const overrides: Record<string, string> = { MEDIA_DIR: path.join(dir, 'media') };
  if (kind !== testDatabaseKind) {
    if (kind === 'postgres') throw new Error('A PostgreSQL app needs the postgres project');
    overrides.DATABASE_URL = `file:${path.join(dir, 'folio.db')}`;
  }
  const app = await createTestApp(overrides, options);
  return {
    ...app,
    mediaDir: overrides.MEDIA_DIR!,
    async close() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Exports the app's site to `file`, in process. */
export async function exportTo(t: TestApp, file: string, passphrase?: string): Promise<void> {
  const sqlitePath = t.config.database.kind === 'sqlite' ? t.config.database.path : undefined;
  await writeSiteArchive({ db: t.db, sqlitePath, storage: t.storage }, fs.createWriteStream(file), { now: new Date(), ...(passphrase === undefined ? {} : { passphrase }) });
}

export interface SiteContent {
  postId: string;
  draftOverId: string;
  scheduledId: string;
  trashedId: string;
  translationId: string;
  imageKey: string;
  fileKey: string;
}

/** A site with every field type, every life-cycle state, and each kind of structure. */
export async function buildSite(t: TestApp): Promise<SiteContent> {
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await t.request(method, `${api}${route}`, { token: t.adminToken, body });
    if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data;
  };
  await call('POST', '/settings', { locales: ['en', 'fr'], siteTitle: 'Archived site' });
  const editor = await t.userWithToken(40, ['content:read', 'content:write'], `editor-${Date.now()}@example.com`);
  await createCollection(t, 'targets', [{ slug: 'title', type: 'string' }]);
  await createCollection(
    t,
    'posts',
    [
      { slug: 'title', type: 'string', searchable: true },
      { slug: 'body', type: 'text' },
      { slug: 'rating', type: 'number' },
      { slug: 'count', type: 'integer' },
      { slug: 'flag', type: 'boolean' },
      { slug: 'when', type: 'datetime' },
      { slug: 'kind', type: 'select', validation: { options: ['a', 'b'] } },
      { slug: 'labels', type: 'multiSelect', validation: { options: ['x', 'y', 'z'] } },
      { slug: 'content', type: 'portableText' },
      { slug: 'cover', type: 'image' },
      { slug: 'attachment', type: 'file' },
      { slug: 'related', type: 'reference', options: { collection: 'targets' } },
      { slug: 'meta', type: 'json' },
      { slug: 'handle', type: 'slug' },
      { slug: 'link', type: 'url' },
    ],
    { supports: ['drafts', 'revisions', 'search', 'seo'], comments: { moderation: 'none' }, urlPattern: '/posts/{slug}' },
  );
  const image = await uploadMedia(t, await tinyPng('#0a0'), { filename: 'cover.png', type: 'image/png', alt: 'Green' });
  const text = await uploadMedia(t, new TextEncoder().encode('attached words\n'), { filename: 'notes.txt', type: 'text/plain' });
  const target = await createEntry(t, 'targets', { data: { title: 'Target' }, status: 'published' });
  const byline = (await call('POST', '/bylines', { displayName: 'Grace Hopper' })).item;
  const values = {
    title: 'Every field',
    body: 'Plain text',
    rating: 3.5,
    count: 7,
    flag: true,
    when: '2026-01-02T03:04:05.000Z',
    kind: 'a',
    labels: ['x', 'z'],
    content: '# Heading\n\nA *paragraph*.',
    cover: { id: image.id, alt: 'Green' },
    attachment: { id: text.id },
    related: target.id,
    meta: { nested: [1, 'two', null] },
    handle: 'every-field',
    link: 'https://example.com/page',
  };
  const post = await createEntry(t, 'posts', { data: values, status: 'published', bylines: [byline.id], seo: { title: 'SEO title' } });
  await call('PUT', `/content/posts/${post.id}`, { data: { body: 'Second save' }, status: 'published' });
  const draftOver = await createEntry(t, 'posts', { data: { title: 'Live title' }, status: 'published' }, editor.token);
  await call('PUT', `/content/posts/${draftOver.id}`, { data: { title: 'Draft title' } });
  const scheduled = await createEntry(t, 'posts', { data: { title: 'Later' } });
  await call('POST', `/content/posts/${scheduled.id}/schedule`, { scheduledAt: new Date(Date.now() + 86_400_000).toISOString() });
  const trashed = await createEntry(t, 'posts', { data: { title: 'Gone' }, status: 'published' });
  await call('DELETE', `/content/posts/${trashed.id}`);
  const translation = await createEntry(t, 'posts', { data: { title: 'Tous les champs' }, locale: 'fr', translationOf: post.id, status: 'published' });

  await call('POST', '/taxonomies', { name: 'topics', label: 'Topics', hierarchical: true, collections: ['posts'] });
  const parent = (await call('POST', '/taxonomies/topics/terms', { slug: 'science', label: 'Science' })).item;
  const child = (await call('POST', '/taxonomies/topics/terms', { slug: 'physics', label: 'Physics', parentId: parent.id })).item;
  await call('POST', `/content/posts/${post.id}/terms/topics`, { termIds: [child.id, parent.id] });

  expectCreated(await t.request('POST', `${api}/menus`, { token: t.adminToken, body: { name: 'main', label: 'Main' } }));
  const home = (await call('POST', '/menus/main/items', { type: 'custom', label: 'Home', url: '/' })).item;
  await call('POST', '/menus/main/items', { type: 'posts', referenceCollection: 'posts', referenceId: post.id, parentId: home.id });
  await call('POST', '/sections', { slug: 'cta', title: 'Call to action', content: 'Sign *up*' });
  await call('POST', '/widget-areas', { name: 'sidebar', label: 'Sidebar' });
  await call('POST', '/widget-areas/sidebar/widgets', { type: 'content', title: 'Hi', content: 'Hello' });
  await call('POST', '/redirects', { from: '/old-post', to: '/posts/every-field' });
  const comment = (await call('POST', `/content/posts/${post.id}/comments`, { name: 'Ada', email: 'ada@example.com', body: 'Nice post' })).item;
  await call('POST', `/content/posts/${post.id}/comments`, { name: 'Bob', email: 'bob@example.com', body: 'Agreed', parentId: comment.id });
  return { postId: post.id, draftOverId: draftOver.id, scheduledId: scheduled.id, trashedId: trashed.id, translationId: translation.id, imageKey: image.storageKey, fileKey: text.storageKey };
}

export interface ArchiveContents {
  manifest: Manifest;
  /** Each records member's lines, sorted; the secrets' lines under `secrets`. */
  records: Record<string, string[]>;
  /** Media files by member name: their SHA-256. */
  media: Record<string, string>;
  names: string[];
}

/** Reads an archive back, member by member, as a test compares two of them. */
export async function readArchive(file: string, passphrase?: string): Promise<ArchiveContents> {
  const contents: ArchiveContents = { manifest: undefined as unknown as Manifest, records: {}, media: {}, names: [] };
  for (const { name, bytes } of await readRawMembers(file, { withSummary: true })) {
    contents.names.push(name);
    if (name === 'manifest.json') contents.manifest = Manifest.parse(JSON.parse(bytes.toString('utf8')));
    else if (name.startsWith('records/')) contents.records[name] = bytes.toString('utf8').split('\n').filter(Boolean).sort();
    else if (name.startsWith('media/')) contents.media[name] = createHash('sha256').update(bytes).digest('hex');
    else if (name === 'secrets.ndjson.enc' && passphrase !== undefined) {
      const decipher = decryptingStream(await deriveKey(passphrase, contents.manifest.encryption!), contents.manifest.encryption!);
      const plain: Buffer[] = [];
      decipher.on('data', (chunk: Buffer) => plain.push(chunk));
      await new Promise<void>((resolve, reject) => {
        decipher.once('error', reject).once('end', resolve);
        decipher.end(bytes);
      });
      contents.records.secrets = Buffer.concat(plain).toString('utf8').split('\n').filter(Boolean).sort();
    }
  }
  return contents;
}

/** The REST answers a restored site must give as its source did. */
export async function readsOf(t: TestApp, token: string, site: SiteContent): Promise<unknown[]> {
  const get = async (route: string) => {
    const response = await t.request('GET', `${api}${route}`, { token });
    return { status: response.status, body: response.headers.get('content-type')?.startsWith('application/json') ? response.body : createHash('sha256').update(response.bytes).digest('hex') };
  };
  return [
    await get(`/content/posts/${site.postId}`),
    await get(`/content/posts/${site.draftOverId}`),
    await get(`/content/posts/${site.scheduledId}`),
    await get(`/content/posts?limit=50`),
    await get(`/content/posts/trash`),
    await get(`/content/posts/${site.postId}/translations`),
    await get(`/content/posts/${site.postId}/terms/topics`),
    await get(`/menus/main`),
    await get(`/taxonomies/topics/terms`),
    await get(`/sections/cta`),
    await get(`/widget-areas/sidebar`),
    await get(`/settings`),
    // Each engine ranks by its own measure: the hits, not their scores.
    withoutScores(await get(`/search?q=field`)),
    await get(`/media/file/${site.imageKey}`),
    await get(`/media/file/${site.fileKey}`),
  ];
}

function withoutScores(answer: { status: number; body: { results?: Record<string, unknown>[] } }) {
  return { ...answer, body: { ...answer.body, results: answer.body.results?.map(({ score: _score, ...hit }) => hit) } };
}

export interface RawMember {
  name: string;
  bytes: Buffer;
}

/** Every member of an archive as it is, in order; the summary only when asked (`writeArchive` makes it again). */
export async function readRawMembers(file: string, options: { withSummary?: boolean } = {}): Promise<RawMember[]> {
  const extract = tar.extract();
  const feeding = pipeline(fs.createReadStream(file), createGunzip(), extract as unknown as Writable);
  const members: RawMember[] = [];
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (options.withSummary === true || entry.header.name !== 'summary.json') members.push({ name: entry.header.name, bytes: Buffer.concat(chunks) });
  }
  await feeding;
  return members;
}

/** An archive of these members with a correct summary: one that passes every check a restore makes first. */
export async function writeArchive(file: string, members: readonly RawMember[]): Promise<void> {
  const pack = tar.pack();
  const listed = members.map(({ name, bytes }) => {
    pack.entry({ name }, bytes);
    const rows = name.startsWith('records/') ? bytes.toString('utf8').split('\n').filter(Boolean).length : undefined;
    return { name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), ...(rows === undefined ? {} : { rows }) };
  });
  pack.entry({ name: 'summary.json' }, JSON.stringify({ members: listed, missingMedia: [] }));
  pack.finalize();
  await pipeline(pack, createGzip(), fs.createWriteStream(file));
}

/** Every row of every table of the app's database, each table's rows sorted: what "as it was" compares. */
export async function everyRow(t: TestApp): Promise<Record<string, string[]>> {
  const tables =
    t.db.dialect === 'postgres'
      ? (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(t.db.kysely)).rows
      : // The full-text index's own tables are left out: the search index is rebuilt, never restored.
        (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'search_fts%'`.execute(t.db.kysely)).rows;
  const rows: Record<string, string[]> = {};
  for (const { name } of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    rows[name] = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.db.kysely)).rows.map((row) => JSON.stringify(row)).sort();
  }
  return rows;
}

/** The files under a directory, each with its SHA-256. */
export function filesUnder(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return files;
}
