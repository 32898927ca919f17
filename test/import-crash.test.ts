import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { spawnServer, type ServerProcess } from './support/process.ts';
import { analyze, allPages } from './support/wxr.ts';
import { generatedCounts, generatedExport } from './support/wxr-generator.ts';

const posts = 2500;

/** Analyses and prepares the generated export on the test app's database; its analysis id. */
async function preparedExport(t: TestApp): Promise<string> {
  const file = Buffer.from(await text(generatedExport({ posts })));
  const analysis = expectCreated(await analyze(t, file));
  expectSuccess(await t.request('POST', `${api}/import/legacy/prepare`, { token: t.adminToken, body: { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }, { name: 'page', collection: 'pages', enabled: true }] } }));
  return analysis.analysisId;
}

/** What a finished import of the generated export holds: every item once, none lost, none twice. */
async function expectImportedOnce(t: TestApp, done: { state: string; lastError: string | null; report: { counts: unknown; failed: unknown[] } }) {
  expect(done.state, done.lastError ?? '').toBe('succeeded');
  const counts = generatedCounts(posts);
  expect(done.report.counts).toEqual({ posts: counts.posts, pages: counts.pages });
  expect(done.report.failed).toEqual([]);

  const imported = await allPages<{ slug: string; data: { parent?: string } }>(t, '/content/posts');
  expect(imported).toHaveLength(counts.posts);
  expect(new Set(imported.map((post) => post.slug)).size).toBe(counts.posts);
  expect(imported.filter((post) => /-\d+-\d+$/.test(post.slug))).toEqual([]);
  const pages = await allPages<{ slug: string; data: { parent?: string } }>(t, '/content/pages');
  expect(pages).toHaveLength(counts.pages);
  // Every page but the first has the page ten before it as its parent.
  expect(pages.filter((page) => page.data.parent === undefined || page.data.parent === null)).toHaveLength(1);
  const checkpoints = await t.db.kysely.selectFrom('import_items').select('source_id').where('kind', '=', 'post').execute();
  expect(checkpoints).toHaveLength(posts);
  const terms = await allPages<{ slug: string; count: number }>(t, '/taxonomies/category/terms');
  expect(terms.map((term) => [term.slug, term.count]).sort()).toEqual([['local', counts.posts], ['news', counts.posts]]);
}

describe('an import cut off mid-way', () => {
  let t: TestApp;
  let mediaDir: string;
  const servers: ServerProcess[] = [];
  const start = async () => {
    const server = spawnServer({ DATABASE_URL: t.database.url, MEDIA_DIR: mediaDir, PORT: '0', LOG_LEVEL: 'info', JOB_LEASE_MS: '1500', SCHEDULER_INTERVAL_MS: '100' });
    servers.push(server);
    const listening = await server.waitForLog((line) => line.msg === 'folio listening', 30_000);
    return { server, url: String(listening.url) };
  };
  const job = async (id: string) => expectSuccess(await t.request('GET', `${api}/import/jobs/${id}`, { token: t.adminToken })).item;

  /** Polls the job until `done` says so, failing at the deadline. */
  async function waitFor(id: string, done: (item: Awaited<ReturnType<typeof job>>) => boolean, deadlineMs: number) {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const item = await job(id);
      if (done(item)) return item;
      if (Date.now() > deadline) throw new Error(`job ${id} did not get there in time: ${JSON.stringify(item)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeEach(async () => {
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-crash-'));
    t = await createTestApp({ MEDIA_DIR: mediaDir });
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.kill();
    await t.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it('by its server killed: a new server resumes where it stopped', { timeout: 180_000 }, async () => {
    const analysisId = await preparedExport(t);
    const first = await start();
    // Started without waiting: the spawned servers run it, not this test's process.
    const accepted = await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, body: { analysisId, options: {} }, headers: { prefer: 'respond-async' } });
    expect(accepted.status).toBe(202);
    const started = accepted.body.data.item;
    // The spawned server may have claimed the job before this answer was read back: either is true.
    expect(['queued', 'running']).toContain(started.state);

    const cut = await waitFor(started.id, (item) => item.progress.phase === 'items' && item.progress.processed >= 300, 60_000);
    await first.server.kill();
    expect(cut.state).toBe('running');
    expect(cut.progress.processed).toBeLessThan(posts);

    await start();
    const done = await waitFor(started.id, (item) => item.state === 'succeeded' || item.state === 'failed', 150_000);
    expect(done.attempts).toBe(2);
    await expectImportedOnce(t, done);
  });

  it('by its own process killed: that attempt fails, the server answers on, and resuming finishes it', { timeout: 180_000 }, async () => {
    const analysisId = await preparedExport(t);
    const { server, url } = await start();
    const call = (method: string, route: string) => fetch(`${url}${api}${route}`, { method, headers: { authorization: `Bearer ${t.adminToken}` } });
    const accepted = await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, body: { analysisId, options: {} }, headers: { prefer: 'respond-async' } });
    expect(accepted.status).toBe(202);
    const id: string = accepted.body.data.item.id;
    // The server runs the import in a process of its own, and says which.
    const running = await server.waitForLog((line) => line.msg === 'job running in a process of its own' && line.jobId === id, 30_000);
    const jobProcess = Number(running.jobProcess);
    expect(jobProcess).toBeGreaterThan(0);
    expect(jobProcess).not.toBe(server.child.pid);

    await waitFor(id, (item) => item.progress.phase === 'items' && item.progress.processed >= 300, 60_000);
    process.kill(jobProcess, 'SIGKILL');
    const failed = await waitFor(id, (item) => item.lastError !== null, 30_000);
    expect(failed.lastError).toMatch(/process ended \(killed by SIGKILL\) before the job finished/);
    expect(failed.state).toBe('queued');
    expect(failed.attempts).toBe(1);
    expect((await call('GET', '/settings')).status).toBe(200);

    // Resumed through the server, which answers when it is done (another of its processes runs it).
    const resumed = await call('POST', `/import/jobs/${id}/resume`);
    const body = (await resumed.json()) as { data: { item: Awaited<ReturnType<typeof job>> } };
    expect(resumed.status, JSON.stringify(body)).toBe(200);
    expect(body.data.item.attempts).toBe(2);
    await expectImportedOnce(t, body.data.item);
  });
});
