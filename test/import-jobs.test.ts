import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { analyze, smallExport } from './support/wxr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/**
 * The imports a page finds again (`GET /import/jobs`), and an import that stopped taken up again from
 * where it stopped (`POST /import/jobs/:id/resume`): what the panel's import wizard stands on (issue 33).
 */
describe('import jobs: the list, and resuming one that stopped', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => t.request(method, `${api}${path}`, { token: t.adminToken, body, headers });

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }]);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Where the analysis keeps the uploaded file, to take it away and give it back (storage out for a while). */
  async function storedUpload(analysisId: string): Promise<string> {
    const row = await t.db.kysely.selectFrom('import_analyses').select('storage_key').where('id', '=', analysisId).executeTakeFirstOrThrow();
    return row.storage_key;
  }

  it('resumes an import whose attempt failed: it finishes, and nothing is imported twice', async () => {
    const file = smallExport('resumed');
    const analysisId = expectCreated(await analyze(t, file)).analysisId;
    const key = await storedUpload(analysisId);
    await t.storage.delete([key]);

    // The attempt fails (the file is gone) and the job waits to retry: answered unfinished, with why.
    const stopped = await request('POST', '/import/legacy/execute', { analysisId });
    expect(stopped.status).toBe(202);
    const job: Json = stopped.body.data.item;
    expect(job).toMatchObject({ state: 'queued', attempts: 1, lastError: expect.any(String) });
    expectError(await request('GET', '/content/posts/resumed-hello'), 404, 'NOT_FOUND');

    await t.storage.write(key, Readable.from([file]), { contentType: 'application/xml' });
    const resumed = expectSuccess(await request('POST', `/import/jobs/${job.id}/resume`)).item;
    expect(resumed).toMatchObject({ id: job.id, state: 'succeeded', report: { counts: { posts: 3, pages: 1 }, failed: [] } });
    expect(expectSuccess(await request('GET', '/content/posts/resumed-hello')).item.status).toBe('published');

    // Each warning of an item that became an entry leads to it.
    const warned = resumed.report.warnings.find((warning: Json) => warning.sourceId === '2');
    expect(warned).toMatchObject({ message: 'private in the source: imported as a draft', entry: { collection: 'posts', id: expect.any(String) } });
    expect(expectSuccess(await request('GET', `/content/posts/${warned.entry.id}`)).item.data.title).toBe('resumed resumed-secret');

    // Finished: nothing to resume, said with a 409; resuming never ran it twice.
    const again = expectError(await request('POST', `/import/jobs/${job.id}/resume`), 409, 'CONFLICT');
    expect(again.message).toContain('succeeded');
    const titles = expectSuccess(await request('GET', '/content/posts?limit=100')).items.map((entry: Json) => entry.data.title);
    expect(titles.filter((title: string) => title.startsWith('resumed '))).toHaveLength(3);
  });

  it('streams a resumed import as NDJSON, or answers 202 at once with Prefer: respond-async', async () => {
    const file = smallExport('later');
    const analysisId = expectCreated(await analyze(t, file)).analysisId;
    const key = await storedUpload(analysisId);
    await t.storage.delete([key]);
    const job: Json = (await request('POST', '/import/legacy/execute', { analysisId })).body.data.item;
    await t.storage.write(key, Readable.from([file]), { contentType: 'application/xml' });

    const accepted = await request('POST', `/import/jobs/${job.id}/resume`, {}, { prefer: 'respond-async' });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('location')).toBe(`${api}/import/jobs/${job.id}`);
    expect(accepted.body.data.item).toMatchObject({ state: 'queued', attempts: 1 });

    const streamed = await request('POST', `/import/jobs/${job.id}/resume`, { stream: true });
    expect(streamed.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = String(streamed.body).trim().split('\n').map((line) => JSON.parse(line) as Json);
    expect(lines.at(-1)).toMatchObject({ id: job.id, state: 'succeeded', report: { counts: { posts: 3, pages: 1 } } });
  });

  it('lists the newest imports first, as many as asked for', async () => {
    const items: Json[] = expectSuccess(await request('GET', '/import/jobs')).items;
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(items.map((item) => item.createdAt)).toEqual(items.map((item) => item.createdAt).sort().reverse());
    expect(items[0]).toMatchObject({ state: 'succeeded', progress: { phase: 'done' }, report: { counts: { posts: 3 } } });
    expect(expectSuccess(await request('GET', '/import/jobs?limit=1')).items).toEqual([items[0]]);
  });

  it('lists the analyses still kept, newest first, as many as asked for', async () => {
    const analysisId = expectCreated(await analyze(t, smallExport('listed'))).analysisId;
    const items: Json[] = expectSuccess(await request('GET', '/import/legacy/analyses')).items;
    expect(items[0]).toEqual({ analysisId, source: 'wxr', site: { title: 'listed', url: 'https://listed.example' }, entries: 4, createdAt: expect.any(String), expiresAt: expect.any(String) });
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(expectSuccess(await request('GET', '/import/legacy/analyses?limit=1')).items).toEqual([items[0]]);
  });

  it('refuses a bad limit, a bad body and an unknown job by name', async () => {
    const refused = async (method: string, path: string, body?: unknown) => expectError(await request(method, path, body), 400, 'VALIDATION_ERROR').details.issues.map((issue: Json) => issue.path);
    expect(await refused('GET', '/import/jobs?limit=0')).toEqual(['limit']);
    expect(await refused('GET', '/import/jobs?limit=51')).toEqual(['limit']);
    expect(await refused('GET', '/import/legacy/analyses?limit=x')).toEqual(['limit']);
    expect(await refused('POST', '/import/jobs/x/resume', { stream: 'yes' })).toEqual(['stream']);
    expectError(await request('POST', '/import/jobs/nope/resume'), 404, 'NOT_FOUND');
  });
});
