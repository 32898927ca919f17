import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { until } from './support/poll.ts';
import { runCli, type CliResult } from './support/process.ts';
import { call, fileBytes, startServer, uploadText, type Server } from './support/served.ts';
import { startS3Server, type S3Server } from './support/s3.ts';

/**
 * `folio move` (docs/decisions/0062): a SQLite site with local media, served by a real server, moved
 * into an empty target (PostgreSQL on the postgres project, SQLite on the sqlite one) while it
 * serves; the comparison, the catch-up, a server on the target answering as the source did, a
 * writer that keeps writing during the move, media copied to S3 (s3rver), and the refusals.
 */
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function ok(server: Server, token: string, method: string, route: string, body?: unknown) {
  const response = await call(server, token, method, route, body);
  expect(response.status, `${method} ${route}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body.data;
}

async function servedBytes(server: Server, token: string, storageKey: string): Promise<Uint8Array> {
  const served = await fileBytes(server, token, storageKey);
  expect(served.status).toBe(200);
  return served.bytes;
}

/** The comparison's rows as printed: table → [source rows, target rows, verdict]. */
function comparisonOf(result: CliResult): Map<string, [number, number, string]> {
  const rows = new Map<string, [number, number, string]>();
  for (const line of result.stdout.split('\n')) {
    const match = /^(\w+)\s+(\d+)\s+(\d+)\s+(same|different)$/.exec(line);
    if (match) rows.set(match[1]!, [Number(match[2]), Number(match[3]), match[4]!]);
  }
  return rows;
}

/** A target database of the project's engine, with its own media folder. */
async function newTarget(dir: string, name: string): Promise<{ database: TestDatabase; mediaDir: string }> {
  return { database: await createTestDatabase(), mediaDir: path.join(dir, `${name}-media`) };
}

describe('folio move', () => {
  let dir: string;
  let env: Record<string, string>;
  let source: Server;
  let token: string;
  const targets: TestDatabase[] = [];
  const servers: Server[] = [];
  let s3: S3Server;
  const ids: Record<string, string> = {};
  const media: { storageKey: string; bytes: Uint8Array }[] = [];

  const target = async (name: string) => {
    const made = await newTarget(dir, name);
    targets.push(made.database);
    return made;
  };
  const targetServer = async (extra: Record<string, string>) => {
    const server = await startServer(extra);
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-move-'));
    env = { DATABASE_URL: `file:${path.join(dir, 'site', 'folio.db')}`, MEDIA_DIR: path.join(dir, 'site', 'media') };
    expect((await runCli(['admin', 'create', '--email', 'mover@example.com', '--name', 'Mover'], env)).code).toBe(0);
    expect((await runCli(['user', 'create', '--email', 'editor@example.com', '--name', 'Editor', '--role', 'editor'], env)).code).toBe(0);
    token = (await runCli(['token', 'create', '--email', 'mover@example.com', '--name', 'mover', '--scopes', 'admin'], env)).stdout.trim();
    [source, s3] = await Promise.all([startServer(env), startS3Server()]);
    const write = (method: string, route: string, body?: unknown) => ok(source, token, method, route, body);

    await write('POST', '/settings', { locales: ['en', 'fr'] });
    await write('POST', '/schema/collections', { slug: 'posts', label: 'Posts', supports: ['drafts', 'revisions', 'search'], comments: { moderation: 'none' } });
    await write('POST', '/schema/collections/posts/fields', { slug: 'title', label: 'Title', type: 'string', searchable: true });
    await write('POST', '/schema/collections/posts/fields', { slug: 'rating', label: 'Rating', type: 'number' });
    await write('POST', '/taxonomies', { name: 'tag', label: 'Tags', collections: ['posts'] });
    await write('POST', '/taxonomies', { name: 'category', label: 'Categories', hierarchical: true, collections: ['posts'] });
    const news = (await write('POST', '/taxonomies/category/terms', { slug: 'news', label: 'News' })).item;
    await write('POST', '/taxonomies/category/terms', { slug: 'local', label: 'Local', parentId: news.id });
    const tag = (await write('POST', '/taxonomies/tag/terms', { slug: 'moved', label: 'Moved' })).item;

    ids.published = (await write('POST', '/content/posts', { data: { title: 'Alpha published', rating: 4.5 }, status: 'published' })).item.id;
    await write('PUT', `/content/posts/${ids.published}`, { data: { title: 'Alpha published, revised', rating: 4.25 } });
    await write('POST', `/content/posts/${ids.published}/publish`);
    ids.staged = (await write('POST', '/content/posts', { data: { title: 'Beta live' }, status: 'published' })).item.id;
    await write('PUT', `/content/posts/${ids.staged}`, { data: { title: 'Beta draft over live' } });
    ids.scheduled = (await write('POST', '/content/posts', { data: { title: 'Gamma scheduled' } })).item.id;
    await write('POST', `/content/posts/${ids.scheduled}/schedule`, { scheduledAt: future(3) });
    ids.trashed = (await write('POST', '/content/posts', { data: { title: 'Delta trashed' } })).item.id;
    await write('DELETE', `/content/posts/${ids.trashed}`);
    ids.french = (await write('POST', '/content/posts', { data: { title: 'Alpha en français' }, locale: 'fr', translationOf: ids.published, status: 'published' })).item.id;
    await write('POST', `/content/posts/${ids.published}/terms/tag`, { termIds: [tag.id] });
    await write('POST', `/content/posts/${ids.published}/terms/category`, { termIds: [news.id] });

    await write('POST', '/menus', { name: 'site', label: 'Site' });
    const home = (await write('POST', '/menus/site/items', { type: 'custom', label: 'Home', url: '/' })).item;
    ids.homeItem = home.id;
    await write('POST', '/menus/site/items', { type: 'post', referenceCollection: 'posts', referenceId: ids.published, parentId: home.id, label: 'Alpha' });

    const thread = (await write('POST', `/content/posts/${ids.published}/comments`, { name: 'Ada', email: 'ada@example.com', body: 'First!' })).item;
    await write('POST', `/content/posts/${ids.published}/comments`, { name: 'Bob', email: 'bob@example.com', body: 'A reply', parentId: thread.id });
    await write('POST', '/redirects', { from: '/old-alpha', to: '/posts/alpha' });

    for (let n = 0; n < 3; n++) {
      const text = `media file ${n}\n`.repeat(200 + n);
      media.push({ storageKey: (await uploadText(source, token, `file-${n}.txt`, text)).storageKey, bytes: new Uint8Array(Buffer.from(text)) });
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all([source?.process.kill(), ...servers.map((server) => server.process.kill())]);
    await s3?.close();
    for (const database of targets) await database.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('moves the whole site while it serves: 0 differences after the catch-up, and a server on the target answers as the source does', { timeout: 240_000 }, async () => {
    const { database, mediaDir } = await target('whole');
    const moved = await runCli(['move', '--to', database.url, '--media-dir', mediaDir], env, 120_000);
    expect(moved.code, moved.stderr).toBe(0);
    const comparison = comparisonOf(moved);
    for (const table of ['users', 'collections', 'fields', 'terms', 'media', 'revisions', 'entry_terms', 'menus', 'menu_items', 'comments', 'redirects', 'api_tokens']) {
      expect(comparison.get(table)?.[1], table).toBeGreaterThan(0);
    }
    expect(comparison.get('users')?.[1]).toBe(2);
    expect(moved.stdout).toContain(`--media-dir ${mediaDir} --catch-up`);
    expect(moved.stdout).toMatch(/DATABASE_URL=.* MEDIA_STORAGE=local MEDIA_DIR=.* folio serve/);

    // What the site changes between the copy and the catch-up: rows changed, added and deleted, a tree
    // pruned and grown, a field added (the entry table is made again), a collection made.
    const write = (method: string, route: string, body?: unknown) => ok(source, token, method, route, body);
    await write('PUT', `/content/posts/${ids.staged}`, { data: { title: 'Beta draft, changed after the copy' } });
    await write('DELETE', `/content/posts/${ids.trashed}/permanent`);
    await write('DELETE', `/menus/site/items/${ids.homeItem}`);
    await write('POST', '/menus/site/items', { type: 'custom', label: 'After the copy', url: '/after' });
    const local = (await write('GET', '/taxonomies/category/terms')).items.find((term: { slug: string }) => term.slug === 'local');
    await write('POST', '/taxonomies/category/terms', { slug: 'later', label: 'Later', parentId: local.id });
    await write('POST', '/schema/collections/posts/fields', { slug: 'subtitle', label: 'Subtitle', type: 'string' });
    await write('PUT', `/content/posts/${ids.published}`, { data: { title: 'Alpha published, revised', rating: 4.25, subtitle: 'Added after the copy' } });
    await write('POST', '/schema/collections', { slug: 'pages', label: 'Pages' });
    await write('POST', '/schema/collections/pages/fields', { slug: 'title', label: 'Title', type: 'string' });
    ids.page = (await write('POST', '/content/pages', { data: { title: 'A page made after the copy' }, status: 'published' })).item.id;

    // The switch: the old server stopped first, so what it still writes after answering (the audit log's queue) is in.
    await source.process.kill();
    const caughtUp = await runCli(['move', '--to', database.url, '--media-dir', mediaDir, '--catch-up'], env, 120_000);
    source = await startServer(env);
    expect(caughtUp.code, caughtUp.stdout + caughtUp.stderr).toBe(0);
    expect(caughtUp.stdout).toMatch(/\n0 differences in \d+ tables/);
    expect(caughtUp.stdout).toMatch(/caught up .*: [1-9]\d* rows added, [1-9]\d* changed, [1-9]\d* deleted/);
    const entryTables = [...comparisonOf(caughtUp).entries()].filter(([table]) => table.startsWith('ec_')).map(([, row]) => row);
    expect(entryTables.sort()).toEqual([[1, 1, 'same'], [4, 4, 'same']]);

    const moved2 = await targetServer({ DATABASE_URL: database.url, MEDIA_DIR: mediaDir });
    const reads = [
      `/content/posts/${ids.published}`,
      `/content/posts/${ids.staged}`,
      `/content/posts/${ids.scheduled}`,
      `/content/posts/${ids.french}`,
      '/content/posts?limit=50',
      `/content/pages/${ids.page}`,
      '/content/pages',
      '/content/posts?trash=true',
      `/content/posts/${ids.published}/translations`,
      `/content/posts/${ids.published}/revisions`,
      `/content/posts/${ids.published}/comments`,
      '/menus/site',
      '/taxonomies/tag/terms',
      '/taxonomies/category/terms',
      '/redirects',
    ];
    for (const route of reads) {
      const [before, after] = [await call(source, token, 'GET', route), await call(moved2, token, 'GET', route)];
      expect(after.status, route).toBe(before.status);
      expect(after.body, route).toEqual(before.body);
    }
    // The index is rebuilt on the target; its scores and excerpts are the engine's own, the entries found are the same.
    const found = async (server: Server) => ((await call(server, token, 'GET', '/search?q=alpha')).body.results as { id: string }[]).map((result) => result.id).sort();
    expect(await found(moved2), 'the search index was rebuilt').toEqual(await found(source));
    expect(await found(moved2)).toContain(ids.published);
    for (const file of media) expect(sha256(await servedBytes(moved2, token, file.storageKey))).toBe(sha256(file.bytes));

    const again = await runCli(['move', '--to', database.url, '--media-dir', mediaDir], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('holds a move from');
  });

  it('ends with every entry on the target when a writer keeps creating entries through HTTP during the move', { timeout: 240_000 }, async () => {
    const { database, mediaDir } = await target('writer');
    const written: string[] = [];
    let writing = true;
    const writer = (async () => {
      const deadline = Date.now() + 120_000;
      for (let n = 0; writing && Date.now() < deadline; n++) {
        written.push((await ok(source, token, 'POST', '/content/posts', { data: { title: `Written during the move ${n}` }, status: 'published' })).item.id);
      }
    })();
    await until(() => written.length >= 3, 'the first writes', 30_000);
    const before = written.length;
    const moved = await runCli(['move', '--to', database.url, '--media-dir', mediaDir], env, 120_000);
    expect(moved.code, moved.stderr).toBe(0);
    // A catch-up while the writer still writes: it runs, and says what differs still.
    const during = await runCli(['move', '--to', database.url, '--media-dir', mediaDir, '--catch-up'], env, 120_000);
    writing = false;
    await writer;
    expect(written.length, 'the server took writes while the move ran').toBeGreaterThan(before);
    expect(during.stdout).toMatch(/caught up .*: \d+ rows added/);

    // As the switch goes: the old server stopped (what it writes after answering, the audit log's queue, is in), then the last catch-up.
    await source.process.kill();
    const final = await runCli(['move', '--to', database.url, '--media-dir', mediaDir, '--catch-up'], env, 120_000);
    source = await startServer(env);
    expect(final.code, final.stdout + final.stderr).toBe(0);
    expect(final.stdout).toMatch(/\n0 differences in \d+ tables/);
    const added = Number(/(\d+) rows added/.exec(final.stdout)?.[1]);
    expect(added).toBeGreaterThanOrEqual(0);

    const server = await targetServer({ DATABASE_URL: database.url, MEDIA_DIR: mediaDir });
    for (const id of written) expect((await call(server, token, 'GET', `/content/posts/${id}`)).status, id).toBe(200);
  });

  it('copies the media files to S3 (s3rver): served byte-identical from the local source and from the bucket', { timeout: 240_000 }, async () => {
    const { database } = await target('s3');
    const s3Env = { S3_ENDPOINT: s3.env.S3_ENDPOINT!, S3_FORCE_PATH_STYLE: 'true', S3_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
    const moved = await runCli(['move', '--to', database.url, '--media', `s3://${s3.env.S3_BUCKET}`], { ...env, ...s3Env }, 120_000);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(`MEDIA_STORAGE=s3 S3_BUCKET=${s3.env.S3_BUCKET}`);
    expect(await s3.keys()).toEqual(expect.arrayContaining(media.map((file) => file.storageKey)));
    const server = await targetServer({ DATABASE_URL: database.url, ...s3.env, ...s3Env });
    for (const file of media) {
      const [local, remote] = [await servedBytes(source, token, file.storageKey), await servedBytes(server, token, file.storageKey)];
      expect(sha256(remote)).toBe(sha256(local));
      expect(sha256(remote)).toBe(sha256(file.bytes));
    }
  });

  it('refuses a target that is not reachable, one that is not empty, and a catch-up no move came before, each in one sentence', { timeout: 120_000 }, async () => {
    const unreachable = await runCli(['move', '--to', 'postgres://postgres@127.0.0.1:1/nowhere'], env);
    expect(unreachable.code).not.toBe(0);
    expect(unreachable.stderr).toMatch(/Cannot reach the database \(PostgreSQL at 127\.0\.0\.1:1\/nowhere\)/);
    expect(unreachable.stdout).toBe('');

    const { database, mediaDir } = await target('refusals');
    const fresh = await runCli(['move', '--to', database.url, '--media-dir', mediaDir, '--catch-up'], env);
    expect(fresh.code).not.toBe(0);
    expect(fresh.stderr).toMatch(/No move from .* was made into this target: run folio move --to with the same target without --catch-up first/);

    // A target filled by a move from another site is not empty for this one.
    const other = { DATABASE_URL: `file:${path.join(dir, 'other', 'folio.db')}`, MEDIA_DIR: mediaDir };
    expect((await runCli(['admin', 'create', '--email', 'other@example.com', '--name', 'Other'], other)).code).toBe(0);
    const otherToken = (await runCli(['token', 'create', '--email', 'other@example.com', '--name', 'other', '--scopes', 'admin'], other)).stdout.trim();
    const otherServer = await targetServer(other);
    await ok(otherServer, otherToken, 'POST', '/schema/collections', { slug: 'pages', label: 'Pages' });
    expect((await runCli(['move', '--to', database.url], other)).code).toBe(0);
    const occupied = await runCli(['move', '--to', database.url, '--media-dir', mediaDir], env);
    expect(occupied.code).not.toBe(0);
    expect(occupied.stderr).toMatch(/The site is not empty \(it has collections.*\)/);
    expect(occupied.stdout).toBe('');

    const same = await runCli(['move', '--to', env.DATABASE_URL!], env);
    expect(same.code).not.toBe(0);
    expect(same.stderr).toContain('--to names the database the site is in already');
    const badMedia = await runCli(['move', '--to', database.url, '--media', 'ftp://x'], env);
    expect(badMedia.stderr).toContain('is not s3://BUCKET');
  });
});

