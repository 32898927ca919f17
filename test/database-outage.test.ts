import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/availability.ts';
import { DatabaseUnavailableError } from '../src/db/connection.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { testDatabaseKind } from './support/database.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { until } from './support/poll.ts';
import { spawnServer, type LogLine, type ServerProcess } from './support/process.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';
import { startWriteLoad, type Answer } from './support/write-load.ts';

/**
 * Issue 36: a database that stops answering is 503 with Retry-After (never 500 INTERNAL_ERROR), logged
 * once per outage rather than per request, and Folio carries on by itself once it is back.
 */
describe('an engine error that is not an outage', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('stays what it is: a broken constraint is not taken for an unreachable database', async () => {
    const row = { key: 'outage-test', value: '1', updated_at: new Date().toISOString() };
    await t.db.kysely.insertInto('settings').values(row).execute();
    const failure = await t.db.kysely.insertInto('settings').values(row).execute().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(DatabaseUnavailableError);
    expect(isDatabaseUnavailable(failure)).toBe(false);
  });
});

if (testDatabaseKind === 'postgres') describe('PostgreSQL stopped and started under load (PostgreSQL only: an SQLite file does not go away)', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let baseUrl: string;
  // The server's connections carry this name, so only they are terminated on the shared PostgreSQL.
  const applicationName = `folio-outage-${ulid().toLowerCase()}`;

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }]);
    const direct = new URL(t.database.url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(t.database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    proxied.searchParams.set('application_name', applicationName);
    // Background passes every 100 ms, so the outage meets some of them.
    server = spawnServer({ DATABASE_URL: proxied.toString(), PORT: '0', LOG_LEVEL: 'info', MEDIA_DIR: '/tmp/folio-test-media', SCHEDULER_INTERVAL_MS: '100' });
    baseUrl = String((await server.waitForLog((line) => line.msg === 'folio listening')).url);
  });
  afterAll(async () => {
    await server?.kill();
    await proxy?.stop();
    await t?.close();
  });

  it('answers 503 with Retry-After while it is down, serves again without a restart, and keeps every acknowledged write', async () => {
    const load = startWriteLoad({ baseUrl, token: t.adminToken, collection: 'notes', clients: 8 });
    const failuresSince = (start: number) => load.answers.slice(start).filter((answer) => answer.status !== 200 && answer.status !== 201).length;
    const ackedSince = (start: number) => load.acked.length - start;
    try {
      await until(() => load.acked.length >= 20, 'writes before the outage', 15_000);

      // The server's backends are ended as a PostgreSQL shutdown ends them (57P01 to each); the
      // server is still there, so the pool's new connections work at once.
      const terminated = await terminateBackends(t.database.url, applicationName);
      expect(terminated).toBeGreaterThan(0);
      const afterTermination = load.acked.length;
      await until(() => ackedSince(afterTermination) >= 20, 'writes after the backends were terminated', 15_000);

      // PostgreSQL goes away: every connection cut, new ones refused.
      const stoppedAt = load.answers.length;
      await proxy.stop();
      await until(() => failuresSince(stoppedAt) >= 50, 'requests failing while the database is down', 15_000);
      const health = await fetch(`${baseUrl}${api}/health`);
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const mcp = await fetch(`${baseUrl}${api}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status).toBe(503);
      expect(mcp.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);

      // And comes back on the same address: Folio, never restarted, serves again by itself.
      const restartedAt = load.acked.length;
      await proxy.start();
      await until(() => ackedSince(restartedAt) >= 20, 'writes after the database came back', 20_000);
      expect((await fetch(`${baseUrl}${api}/health`)).status).toBe(200);
    } finally {
      await load.stop();
    }

    // Every failed answer is the retryable 503 with its envelope: no 500, no dropped connection.
    const failed = load.answers.filter((answer) => answer.status !== 200 && answer.status !== 201);
    expect(failed.length).toBeGreaterThanOrEqual(50);
    const unexpected = failed.filter((answer) => !isRetryable(answer));
    expect(unexpected.slice(0, 5), `${unexpected.length} answers were not 503 with Retry-After`).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();

    // Every write the server acknowledged is there.
    const headers = { authorization: `Bearer ${t.adminToken}` };
    const missing: string[] = [];
    for (const write of load.acked) {
      const response = await fetch(`${baseUrl}${api}/content/notes/${write.id}`, { headers });
      const body = (await response.json()) as { data?: { item?: { data?: { title?: string } } } };
      if (response.status !== 200 || body.data?.item?.data?.title !== write.title) missing.push(write.id);
    }
    expect(missing, `${missing.length} of ${load.acked.length} acknowledged writes are missing`).toEqual([]);

    // Logged per outage, not per request: at most one line for the terminated backends and one for
    // the stop, against the many failed requests; no request's failure written as a bug.
    const outageLines = server.logs.filter((line) => String(line.msg).startsWith('database unavailable'));
    expect(outageLines.length).toBeGreaterThanOrEqual(1);
    expect(outageLines.length).toBeLessThanOrEqual(2);
    expect(server.logs.filter((line) => line.msg === 'database available again').length).toBeGreaterThanOrEqual(1);
    expect(server.logs.filter(isBugReport)).toEqual([]);
    // Nor a background pass's (the job runner looks for due jobs every second): the outage line says it.
    const otherErrors = server.logs.filter((line) => (line.level ?? 0) >= 50 && !outageLines.includes(line));
    expect(otherErrors.slice(0, 3)).toEqual([]);
  });
});

if (testDatabaseKind === 'sqlite') describe('SQLite locked by another process past the busy timeout (SQLite only: PostgreSQL has no such lock)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }]);
  });
  afterAll(() => t.close());

  it('answers a write 503 with Retry-After, REST and MCP alike, while reads go on; then writes again', async () => {
    const kept = await createEntry(t, 'notes', { data: { title: 'Before' } });
    // Another process (the CLI, an import) holding the write lock: a second connection to the same file.
    const other = new SqliteDatabase(t.config.database.kind === 'sqlite' ? t.config.database.path : '');
    try {
      other.exec('begin immediate');
      const refused = await t.request('POST', `${api}/content/notes`, { token: t.adminToken, body: { data: { title: 'Locked out' } } });
      expectError(refused, 503, 'SERVICE_UNAVAILABLE');
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const tool = await t.request('POST', `${api}/mcp`, {
        token: t.adminToken,
        headers: { accept: 'application/json' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_create', arguments: { collection: 'notes', data: { title: 'Locked out' } } } },
      });
      expect(tool.status).toBe(200);
      expect(tool.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^SERVICE_UNAVAILABLE: /) }] });
      expect(expectSuccess(await t.request('GET', `${api}/content/notes/${kept.id}`, { token: t.adminToken })).item.data.title).toBe('Before');
    } finally {
      other.exec('rollback');
      other.close();
    }
    const after = await createEntry(t, 'notes', { data: { title: 'After' } });
    const titles = expectSuccess(await t.request('GET', `${api}/content/notes`, { token: t.adminToken })).items.map((item: { data: { title: string } }) => item.data.title);
    expect(titles.sort()).toEqual(['After', 'Before']);
    expect(after.id).not.toBe(kept.id);
  });
});

function isRetryable(answer: Answer): boolean {
  return answer.status === 503 && answer.code === 'SERVICE_UNAVAILABLE' && /^[1-9]\d*$/.test(answer.retryAfter ?? '');
}

/** A failure logged as a bug (or one that escaped its request). */
function isBugReport(line: LogLine): boolean {
  return /unhandled error|error after the request was answered|MCP request failed/.test(String(line.msg));
}

/** Ends the server's backends from a connection of the test's own; returns how many. */
async function terminateBackends(databaseUrl: string, applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ended: boolean }>('select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1', [applicationName]);
    return rows.filter((row) => row.ended).length;
  } finally {
    await client.end();
  }
}
