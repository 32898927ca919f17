import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, createApp } from '../src/app.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';
import { startMediaFixtures, type MediaFixtureServer } from './support/media-fixtures.ts';
import { multipart, tinyPng } from './support/media.ts';
import { until } from './support/poll.ts';
import { analyze, smallExport } from './support/wxr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/**
 * `POST /import/legacy/execute` answers when the import is done, as import.md and DECISIONS §7 read
 * (issue 29, item 19): with the finished job and its report; as NDJSON progress with `stream`; at
 * once (202) with `Prefer: respond-async`. A client that hangs up leaves the import to finish.
 */
describe('POST /import/legacy/execute: the answer', () => {
  let t: TestApp;
  let site: MediaFixtureServer;
  let server: ServerType;
  let baseUrl: string;
  const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => t.request(method, `${api}${path}`, { token: t.adminToken, body, headers });
  const job = async (id: string): Promise<Json> => expectSuccess(await request('GET', `/import/jobs/${id}`)).item;

  /** Analyses `file` and maps its posts and pages to the collections the site has. */
  async function analysed(file: Buffer): Promise<string> {
    return expectCreated(await analyze(t, file)).analysisId;
  }

  /** The import job of an analysis, found in the table: for a client that never got an answer. */
  async function jobOf(analysisId: string): Promise<string | undefined> {
    const rows = await t.db.kysely.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', 'import.run').execute();
    return rows.find((row) => (JSON.parse(row.payload) as { analysisId: string }).analysisId === analysisId)?.id;
  }

  /** Polls the job until it has finished, failing at the deadline. */
  async function finished(id: string, deadlineMs = 20_000): Promise<Json> {
    let last: Json = {};
    await until(async () => ['succeeded', 'failed'].includes((last = await job(id)).state), `job ${id} to finish`, deadlineMs);
    return last;
  }

  beforeAll(async () => {
    site = await startMediaFixtures();
    site.serve('/uploads/held-plain.png', await tinyPng('#00f', 8, 8));
    site.serve('/uploads/held-stream.png', await tinyPng('#0ff', 8, 8));
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }]);
    await createEntry(t, 'posts', { data: { title: 'Already here' }, slug: 'taken' });
    // The same app over a real socket, for clients that hang up; like the in-process one, it runs no background jobs.
    const app = createApp({ config: t.config, db: t.db, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock, routes: apiRoutes });
    server = await new Promise<ServerType>((resolve) => {
      const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${api}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
    await site.close();
  });

  it('answers with the finished job and its report; the content is there as soon as it answers', async () => {
    const analysisId = await analysed(smallExport('plain'));
    const response = await request('POST', '/import/legacy/execute', { analysisId });
    const item = expectSuccess(response).item;
    expect(item).toMatchObject({ analysisId, state: 'succeeded', attempts: 1, lastError: null, progress: { phase: 'done' }, finishedAt: expect.any(String) });
    expect(item.report).toMatchObject({ counts: { posts: 3, pages: 1 }, failed: [] });
    expect(item.report.skipped).toContainEqual({ reason: 'status trash is not imported', count: 1, items: [{ sourceId: '3', title: 'plain plain-binned' }] });
    expect(item.report.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sourceId: '2', message: 'private in the source: imported as a draft' }),
        expect.objectContaining({ message: 'slug taken was taken in posts; renamed to taken-2' }),
      ]),
    );
    expect(response.headers.get('location')).toBeNull();
    expect(expectSuccess(await request('GET', '/content/posts/plain-hello')).item).toMatchObject({ status: 'published', data: { title: 'plain plain-hello' } });
    expect(expectSuccess(await request('GET', '/content/pages/plain-about')).item.status).toBe('published');
    expect(expectSuccess(await request('GET', '/content/posts/taken-2')).item.data.title).toBe('plain taken');
    expect(await job(item.id)).toEqual(item);
  });

  it('answers 202 at once with Prefer: respond-async: the queued job, its status URL in Location', async () => {
    const analysisId = await analysed(smallExport('later'));
    const response = await request('POST', '/import/legacy/execute', { analysisId }, { prefer: 'handling=lenient, respond-async' });
    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('respond-async');
    const item = response.body.data.item;
    expect(item).toMatchObject({ analysisId, state: 'queued', attempts: 0, progress: { phase: 'queued', processed: 0 } });
    expect(response.headers.get('location')).toBe(`${api}/import/jobs/${item.id}`);
    // Nothing imported yet: the runners do it, as before.
    expectError(await request('GET', '/content/posts/later-hello'), 404, 'NOT_FOUND');
    expect(expectSuccess(await t.request('GET', response.headers.get('location')!, { token: t.adminToken })).item).toEqual(item);
    await testJobRunner(t).runDue();
    expect((await job(item.id)).report.counts).toEqual({ posts: 3, pages: 1 });
    expect(expectSuccess(await request('GET', '/content/posts/later-hello')).item.status).toBe('published');
  });

  it('streams the progress with stream: true, as NDJSON lines ending with the finished job (both forms)', async () => {
    const analysisId = await analysed(smallExport('streamed'));
    const response = await request('POST', '/import/legacy/execute', { analysisId, stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = String(response.body).trim().split('\n').map((line) => JSON.parse(line) as Json);
    expect(lines.length).toBeGreaterThan(1);
    expect(new Set(lines.map((line) => line.id)).size).toBe(1);
    expect(lines[0]!.state).toMatch(/^(queued|running)$/);
    expect(lines.at(-1)).toMatchObject({ analysisId, state: 'succeeded', progress: { phase: 'done' }, report: { counts: { posts: 3, pages: 1 }, failed: [] } });
    expect(lines.slice(0, -1).every((line) => line.report === undefined)).toBe(true);

    // Form A: the file and a config that asks for the stream.
    const config = JSON.stringify({ postTypeMappings: { post: { collection: 'posts' }, page: { collection: 'pages' } }, stream: true });
    const { body, contentType } = await multipart({ config, file: { bytes: smallExport('uploaded'), filename: 'export.xml' } });
    const uploaded = await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, rawBody: body, headers: { 'content-type': contentType } });
    expect(uploaded.headers.get('content-type')).toContain('application/x-ndjson');
    const last = JSON.parse(String(uploaded.body).trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ state: 'succeeded', report: { counts: { posts: 3, pages: 1 } } });
  });

  it('answers 202 with the job and its last error when an attempt failed and waits for its retry', async () => {
    const analysisId = await analysed(smallExport('broken'));
    // The stored upload gone: reading it fails, and the job is queued again for later.
    const { storage_key: key } = await t.db.kysely.selectFrom('import_analyses').select('storage_key').where('id', '=', analysisId).executeTakeFirstOrThrow();
    await t.storage.delete([key]);
    const response = await request('POST', '/import/legacy/execute', { analysisId });
    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBeNull();
    const item = response.body.data.item;
    expect(item).toMatchObject({ state: 'queued', attempts: 1, lastError: expect.any(String) });
    expect(response.headers.get('location')).toBe(`${api}/import/jobs/${item.id}`);
  });

  it('finishes the import of a client that hangs up while it waits', async () => {
    const release = site.hold('/uploads/held-plain.png');
    const analysisId = await analysed(smallExport('hangup', `${site.origin}/uploads/held-plain.png`));
    const client = new AbortController();
    const answer = fetch(`${baseUrl}/import/legacy/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ analysisId, options: { includeMedia: true } }),
      signal: client.signal,
    }).catch((error: unknown) => error);
    // The job is in its media phase, in the request's own run, held on the download.
    await until(() => site.hits.has('/uploads/held-plain.png'), 'the held download', 20_000);
    client.abort();
    expect(await answer).toMatchObject({ name: 'AbortError' });
    const id = (await jobOf(analysisId))!;
    expect((await job(id)).state).toBe('running');
    release();
    const done = await finished(id);
    expect(done.state, done.lastError).toBe('succeeded');
    expect(done.attempts).toBe(1);
    expect(done.report.media.downloads).toMatchObject({ total: 1, downloaded: 1, failed: 0 });
    expect(expectSuccess(await request('GET', '/content/posts/hangup-hello')).item.status).toBe('published');
  });

  it('finishes the import of a client that stops reading its stream', async () => {
    const release = site.hold('/uploads/held-stream.png');
    const analysisId = await analysed(smallExport('gone', `${site.origin}/uploads/held-stream.png`));
    const response = await fetch(`${baseUrl}/import/legacy/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ analysisId, options: { includeMedia: true }, stream: true }),
    });
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const reader = response.body!.getReader();
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split('\n')[0]!) as Json;
    await until(() => site.hits.has('/uploads/held-stream.png'), 'the held download', 20_000);
    await reader.cancel();
    release();
    const done = await finished(first.id);
    expect(done.state, done.lastError).toBe('succeeded');
    expect(done.attempts).toBe(1);
    expect(done.report.counts).toEqual({ posts: 3, pages: 1 });
    expect(done.report.media.downloads).toMatchObject({ downloaded: 1 });
  });
});
