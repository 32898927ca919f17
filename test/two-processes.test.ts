import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerName } from '../src/db/change-feed.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/database.ts';
import { until } from './support/poll.ts';
import { runCli, spawnServer, type ServerProcess } from './support/process.ts';

/**
 * Two `folio serve` processes on one database, as a site behind a load balancer runs. Each keeps hot
 * reads in memory (settings, tokens, the schema); a change made through one is seen by the other on
 * its next request on SQLite (the file's data version is read on each request), and on PostgreSQL as
 * soon as the notification of src/db/change-feed.ts arrives (decisions/0052): normally before the
 * writer has even answered, but on a loaded machine the listening backend may be scheduled a few
 * milliseconds after the client's next request, so there the test waits for it with a deadline.
 */
let database: TestDatabase;
let mediaDir: string;
let one: ServerProcess;
let other: ServerProcess;
const url: Record<'one' | 'other', string> = { one: '', other: '' };
let adminToken: string;
let adminId: string;

async function call(server: 'one' | 'other', method: string, route: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${url[server]}/_cms/api${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
}

/** Whether the other process sees a change: at its very next request on SQLite, within a second on PostgreSQL. */
async function seenByOther(check: () => Promise<boolean>, what: string): Promise<void> {
  if (testDatabaseKind === 'sqlite') expect(await check(), what).toBe(true);
  else await until(check, what, 1000);
}

async function start(env: Record<string, string>): Promise<{ server: ServerProcess; url: string }> {
  const server = spawnServer(env);
  const listening = await server.waitForLog((line) => line.msg === 'folio listening', 60_000);
  return { server, url: String(listening.url) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-two-'));
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', MEDIA_DIR: mediaDir, PORT: '0' };
  const migrated = await runCli(['migrate'], env);
  expect(migrated.code, migrated.stderr).toBe(0);
  const created = await runCli(['admin', 'create', '--email', 'two@example.com', '--name', 'Two'], env);
  adminId = created.stdout.trim();
  adminToken = (await runCli(['token', 'create', '--email', 'two@example.com', '--name', 'both', '--scopes', 'admin'], env)).stdout.trim();
  [{ server: one, url: url.one }, { server: other, url: url.other }] = await Promise.all([start(env), start(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([one?.kill(), other?.kill()]);
  await database?.drop();
  if (mediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('two server processes on one database', () => {
  it('sees a setting changed through the other', async () => {
    for (let n = 0; n < 2; n++) expect((await call('other', 'GET', '/settings', adminToken)).body.data.siteTitle).toBe('Folio');
    expect((await call('one', 'POST', '/settings', adminToken, { siteTitle: 'Changed over there' })).status).toBe(200);
    await seenByOther(async () => (await call('other', 'GET', '/settings', adminToken)).body.data.siteTitle === 'Changed over there', 'the new site title');
  });

  it('refuses a token revoked through the other', async () => {
    const created = await call('one', 'POST', '/admin/tokens', adminToken, { userId: adminId, name: 'short-lived', scopes: ['content:read'] });
    expect(created.status).toBe(201);
    for (let n = 0; n < 2; n++) expect((await call('other', 'GET', '/auth/me', created.body.data.token)).status).toBe(200);
    expect((await call('one', 'DELETE', `/admin/tokens/${created.body.data.item.id}`, adminToken)).status).toBe(200);
    await seenByOther(async () => (await call('other', 'GET', '/auth/me', created.body.data.token)).status === 401, 'the revoked token refused');
  });

  it('takes entries into a collection created through the other', async () => {
    expect((await call('other', 'GET', '/schema/collections', adminToken)).body.data.items).toEqual([]);
    expect((await call('one', 'POST', '/schema/collections', adminToken, { slug: 'notes', label: 'Notes' })).status).toBe(201);
    // 400 (no field `title` yet) once the collection is known; 404 before.
    await seenByOther(async () => (await call('other', 'POST', '/content/notes', adminToken, { data: { title: 'Too early' } })).status === 400, 'the new collection');
    expect((await call('one', 'POST', '/schema/collections/notes/fields', adminToken, { slug: 'title', label: 'Title', type: 'string' })).status).toBe(201);
    // A refused POST writes nothing, so trying again until it is taken makes one entry.
    let entry: Awaited<ReturnType<typeof call>> | undefined;
    await seenByOther(async () => (entry = await call('other', 'POST', '/content/notes', adminToken, { data: { title: 'Written over here' } })).status === 201, 'the new field');
    expect((await call('one', 'GET', `/content/notes/${entry!.body.data.item.id}`, adminToken)).body.data.item.data.title).toBe('Written over here');
  });

  it("shows a comment approved through the other on an entry's page of comments the other held in memory", async () => {
    expect((await call('one', 'POST', '/schema/collections', adminToken, { slug: 'talks', label: 'Talks', comments: { moderation: 'all' } })).status).toBe(201);
    expect((await call('one', 'POST', '/schema/collections/talks/fields', adminToken, { slug: 'title', label: 'Title', type: 'string' })).status).toBe(201);
    const entry = (await call('one', 'POST', '/content/talks', adminToken, { data: { title: 'Talked about' }, status: 'published' })).body.data.item.id as string;
    const posted = await call('one', 'POST', `/content/talks/${entry}/comments`, undefined, { name: 'Ada', email: 'ada@example.com', body: 'Held at first' });
    expect(posted.status).toBe(201);
    const shown = async () => (await call('other', 'GET', `/content/talks/${entry}/comments`, adminToken)).body.data.items.map((item: { id: string }) => item.id);
    // Held: none shown; the second read is answered from memory.
    await seenByOther(async () => (await call('other', 'GET', `/content/talks/${entry}/comments`, adminToken)).status === 200, 'the new entry');
    for (let n = 0; n < 2; n++) expect(await shown()).toEqual([]);
    expect((await call('one', 'POST', '/comments/moderate', adminToken, { ids: [posted.body.data.item.id], action: 'approve' })).status).toBe(200);
    await seenByOther(async () => (await shown()).includes(posted.body.data.item.id), 'the approved comment');
  });

  // PostgreSQL only: SQLite has no connection to lose, it reads the file's data version on each request.
  if (testDatabaseKind === 'postgres') it('serves nothing stale from memory after losing its listening connection, once back', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const listenerOf = async (server: ServerProcess) =>
        (await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [`${listenerName}${server.child.pid}`])).rows.map((row) => row.pid);
      const [lost] = await listenerOf(other);
      expect(lost).toBeDefined();
      for (let n = 0; n < 2; n++) expect((await call('other', 'GET', '/settings', adminToken)).status).toBe(200);
      await client.query('select pg_terminate_backend($1)', [lost]);
      // Written while the other process cannot hear of it.
      await client.query(`update settings set value = '"Missed while away"' where key = 'siteTitle'`);
      await until(async () => (await listenerOf(other)).some((pid) => pid !== lost), 'a new listening connection', 30_000);
      expect((await call('other', 'GET', '/settings', adminToken)).body.data.siteTitle).toBe('Missed while away');
    } finally {
      await client.end();
    }
  });
});
