import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findJob } from '../src/jobs/store.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';
import { spawnServer, type ServerProcess } from './support/process.ts';

const api = '/_cms/api';

/** Polls `check` until it returns true; fails at the deadline. */
async function eventually(check: () => Promise<boolean>, deadlineMs: number, what: string): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not happen within ${deadlineMs} ms`);
}

async function createCollection(t: TestApp, slug: string): Promise<void> {
  expect((await t.request('POST', `${api}/schema/collections`, { token: t.adminToken, body: { slug, label: slug } })).status).toBe(201);
  const field = { slug: 'title', label: 'Title', type: 'string', required: true };
  expect((await t.request('POST', `${api}/schema/collections/${slug}/fields`, { token: t.adminToken, body: field })).status).toBe(201);
}

async function createScheduled(t: TestApp, collection: string, title: string, at: Date): Promise<string> {
  const created = await t.request('POST', `${api}/content/${collection}`, { token: t.adminToken, body: { data: { title } } });
  const id = created.body.data.item.id as string;
  const scheduled = expectSuccess(await t.request('POST', `${api}/content/${collection}/${id}/schedule`, { token: t.adminToken, body: { scheduledAt: at.toISOString() } }));
  expect(scheduled.item.status).toBe('scheduled');
  return id;
}

async function statusOf(t: TestApp, collection: string, id: string): Promise<string> {
  return expectSuccess(await t.request('GET', `${api}/content/${collection}/${id}`, { token: t.adminToken })).item.status;
}

describe('the scheduler in one process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'notes');
  });
  afterAll(() => t.close());

  it('publishes an entry once its time has come, and not before', async () => {
    const due = await createScheduled(t, 'notes', 'Due soon', new Date(t.clock.now().getTime() + 60_000));
    const later = await createScheduled(t, 'notes', 'Next week', new Date(t.clock.now().getTime() + 7 * 86_400_000));
    const scheduler = testJobRunner(t);
    scheduler.start();
    try {
      expect(await statusOf(t, 'notes', due)).toBe('scheduled');
      t.clock.advance(61_000);
      await eventually(async () => (await statusOf(t, 'notes', due)) === 'published', 5_000, 'publishing the due entry');
      const item = expectSuccess(await t.request('GET', `${api}/content/notes/${due}`, { token: t.adminToken })).item;
      expect(item.scheduledAt).toBeUndefined();
      expect(item.publishedAt).toBe(t.clock.now().toISOString());
      expect(await statusOf(t, 'notes', later)).toBe('scheduled');
    } finally {
      await scheduler.stop();
    }
  });

  it('leaves an entry alone once it was unscheduled or trashed', async () => {
    const at = new Date(t.clock.now().getTime() + 60_000);
    const unscheduled = await createScheduled(t, 'notes', 'Changed my mind', at);
    const trashed = await createScheduled(t, 'notes', 'Thrown away', at);
    const control = await createScheduled(t, 'notes', 'Still wanted', at);
    expectSuccess(await t.request('DELETE', `${api}/content/notes/${unscheduled}/schedule`, { token: t.adminToken }));
    expectSuccess(await t.request('DELETE', `${api}/content/notes/${trashed}`, { token: t.adminToken }));
    t.clock.advance(61_000);
    expect(await testJobRunner(t).runDue()).toBe(1);
    expect(await statusOf(t, 'notes', control)).toBe('published');
    expect(await statusOf(t, 'notes', unscheduled)).toBe('draft');
    expectSuccess(await t.request('POST', `${api}/content/notes/${trashed}/restore`, { token: t.adminToken }));
    expect(await statusOf(t, 'notes', trashed)).toBe('draft');
  });

  it('publishes at the new time when an entry is scheduled again, once', async () => {
    const id = await createScheduled(t, 'notes', 'Moved', new Date(t.clock.now().getTime() + 60_000));
    const later = new Date(t.clock.now().getTime() + 120_000).toISOString();
    expectSuccess(await t.request('POST', `${api}/content/notes/${id}/schedule`, { token: t.adminToken, body: { scheduledAt: later } }));
    t.clock.advance(61_000);
    expect(await testJobRunner(t).runDue()).toBe(0);
    expect(await statusOf(t, 'notes', id)).toBe('scheduled');
    t.clock.advance(60_000);
    expect(await testJobRunner(t).runDue()).toBe(1);
    expect(await statusOf(t, 'notes', id)).toBe('published');
  });

  it('does nothing when a publication job runs again after its entry was published', async () => {
    const id = await createScheduled(t, 'notes', 'Twice', new Date(t.clock.now().getTime() + 60_000));
    const job = await t.db.kysely.selectFrom('jobs').select('id').where('unique_key', '=', `content.publishScheduled:${id}`).executeTakeFirstOrThrow();
    t.clock.advance(61_000);
    expect(await testJobRunner(t).runDue()).toBe(1);
    expect((await findJob(t.db, job.id))?.result).toEqual({ published: true });
    // As if its worker had died after the publication committed: the job is claimed and run again.
    await t.db.kysely.updateTable('jobs').set({ state: 'queued' }).where('id', '=', job.id).execute();
    expect(await testJobRunner(t).runDue()).toBe(1);
    expect((await findJob(t.db, job.id))?.result).toEqual({ published: false });
    const revisions = expectSuccess(await t.request('GET', `${api}/content/notes/${id}/revisions`, { token: t.adminToken }));
    expect(revisions.total).toBe(2);
  });
});

describe('the scheduler with two server processes on one database', () => {
  let t: TestApp;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'articles');
    const env = { DATABASE_URL: t.database.url, PORT: '0', LOG_LEVEL: 'info', SCHEDULER_INTERVAL_MS: '100', MEDIA_DIR: '/tmp/folio-test-media' };
    for (let index = 0; index < 2; index++) servers.push(spawnServer(env));
    await Promise.all(servers.map((server) => server.waitForLog((line) => line.msg === 'folio listening')));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await t.close();
  });

  it('publishes each due entry exactly once', async () => {
    const count = 20;
    // Both servers run on the real clock: the entries fall due shortly after they are all scheduled.
    const at = new Date(Date.now() + 2_000);
    const ids: string[] = [];
    for (let index = 0; index < count; index++) ids.push(await createScheduled(t, 'articles', `Article ${index}`, at));

    const publications = () => servers.flatMap((server) => server.logs.filter((line) => line.msg === 'published scheduled entry').map((line) => line.entryId));
    await eventually(async () => publications().length >= count, 20_000, 'publishing every entry');

    for (const id of ids) expect(await statusOf(t, 'articles', id)).toBe('published');
    // Each entry: one revision when created, one when published; a second publish would add another.
    for (const id of ids) {
      const revisions = expectSuccess(await t.request('GET', `${api}/content/articles/${id}/revisions`, { token: t.adminToken }));
      expect(revisions.total).toBe(2);
    }
    expect(publications().sort()).toEqual([...ids].sort());
  });
});
