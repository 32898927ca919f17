import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJob } from '../src/import/job/job.ts';
import { inChildProcess } from '../src/jobs/child-process.ts';
import { api } from './support/content.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { until } from './support/poll.ts';
import { runCli, spawnServer, type ServerProcess } from './support/process.ts';
import { generatedCounts, generatedExport } from './support/wxr-generator.ts';

const posts = 200;

/** Whether a process with this id still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A server runs an import in a process of its own (docs/decisions/0066), which it starts as the export
 * is analysed, so the import does not wait for it to load; the process ends with the job.
 */
describe('a served import', () => {
  let database: TestDatabase;
  let mediaDir: string;
  let server: ServerProcess;
  let url: string;
  let token: string;
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${url}${api}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-process-'));
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', MEDIA_DIR: mediaDir, PORT: '0' };
    expect((await runCli(['migrate'], env)).code).toBe(0);
    expect((await runCli(['admin', 'create', '--email', 'imp@example.com', '--name', 'Importer'], env)).code).toBe(0);
    token = (await runCli(['token', 'create', '--email', 'imp@example.com', '--name', 'import', '--scopes', 'admin'], env)).stdout.trim();
    server = spawnServer(env);
    url = String((await server.waitForLog((line) => line.msg === 'folio listening', 60_000)).url);
  }, 120_000);

  afterAll(async () => {
    await server?.kill();
    await database?.drop();
    if (mediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it('runs in the process started when its export was analysed, which ends with it', { timeout: 120_000 }, async () => {
    const form = new FormData();
    form.append('file', new Blob([await text(generatedExport({ posts }))], { type: 'application/xml' }), 'export.xml');
    const analysed = await fetch(`${url}${api}/import/legacy/analyze`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const analysis = ((await analysed.json()) as { data: { analysisId: string } }).data;
    expect(analysed.status).toBe(201);
    const started = await server.waitForLog((line) => line.msg === 'job process started ahead of its job', 10_000);
    const jobProcess = Number(started.jobProcess);
    expect(alive(jobProcess)).toBe(true);

    const prepared = await call('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }, { name: 'page', collection: 'pages', enabled: true }] });
    expect(prepared.status).toBe(200);
    const executed = await call('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: {} });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    const job = executed.body.data.item;
    expect(job.state, job.lastError).toBe('succeeded');
    const counts = generatedCounts(posts);
    expect(job.report.counts).toEqual({ posts: counts.posts, pages: counts.pages });

    const running = server.logs.find((line) => line.msg === 'job running in a process of its own' && line.jobId === job.id);
    expect(running?.jobProcess).toBe(jobProcess);
    await until(async () => !alive(jobProcess), 'the import process gone once the job finished', 10_000);
    const listed = await call('GET', '/content/posts?limit=1');
    expect(listed.status).toBe(200);
    expect(listed.body.data.items).toHaveLength(1);
  });
});

describe('a process started ahead of its import', () => {
  it('ends when its server stops, never a job having come', { timeout: 60_000 }, async () => {
    const lines: { msg: string; jobProcess?: number }[] = [];
    const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string; jobProcess?: number }) });
    const imports = inChildProcess(importJob, new URL('../src/job-process.ts', import.meta.url));
    imports.warm(log);
    const jobProcess = lines.find((line) => line.msg === 'job process started ahead of its job')?.jobProcess;
    expect(jobProcess).toBeGreaterThan(0);
    // Loaded and listening: from then on it ignores SIGTERM, its parent deciding when it ends.
    await until(() => lines.some((line) => line.msg === 'job process ready for its job'), 'the process started ahead ready', 30_000);
    expect(alive(jobProcess!)).toBe(true);
    imports.close();
    await until(() => !alive(jobProcess!), 'the process started ahead gone', 10_000);
  });
});
