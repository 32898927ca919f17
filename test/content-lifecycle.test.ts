import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';

// The state table of mcp.md §3 over the REST parity endpoints of DECISIONS §3, seen from outside.

const unknownId = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const day = 24 * 60 * 60 * 1000;
const ok = expectSuccess;

let t: TestApp;
/** role 40 with content:read only: lacks content:write. */
let readOnlyToken: string;
/** role 40 with media:read only: lacks content:read. */
let noContentToken: string;
let subscriberToken: string;
let contributorToken: string;
let authorToken: string;

interface CallOptions {
  body?: unknown;
  /** Defaults to the admin token; pass `token: undefined` for none. */
  token?: string;
}

function call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  return t.request(method, `/_cms/api${path}`, { token: t.adminToken, ...options });
}

async function create(data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/content/posts', { body: { data, ...extra } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.item;
}

async function read(id: string) {
  return ok(await call('GET', `/content/posts/${id}`)).item;
}

/** A published entry with a draft staged over it: live title `live`, draft title `draft`. */
async function publishedWithDraft(live: string, draft: string) {
  const entry = await create({ title: live }, { status: 'published' });
  t.clock.advance(1000);
  return ok(await call('PUT', `/content/posts/${entry.id}`, { body: { data: { title: draft } } })).item;
}

function future(days = 1): string {
  return new Date(t.clock.now().getTime() + days * day).toISOString();
}

function expectForbidden(response: ApiResponse, detail: Record<string, unknown>) {
  expect(expectError(response, 403, 'FORBIDDEN').details).toMatchObject(detail);
}

beforeAll(async () => {
  t = await createTestApp();
  const collection = await call('POST', '/schema/collections', { body: { slug: 'posts', label: 'Posts' } });
  expect(collection.status, JSON.stringify(collection.body)).toBe(201);
  for (const field of [
    { slug: 'title', label: 'Title', type: 'string', required: true },
    { slug: 'body', label: 'Body', type: 'text' },
    { slug: 'code', label: 'Code', type: 'string', unique: true },
  ]) {
    const added = await call('POST', '/schema/collections/posts/fields', { body: field });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }
  ok(await call('POST', '/settings', { body: { locales: ['en', 'fr', 'de'] } }));
  readOnlyToken = (await t.userWithToken(40, ['content:read'])).token;
  noContentToken = (await t.userWithToken(40, ['media:read'])).token;
  subscriberToken = (await t.userWithToken(10, ['content:read'])).token;
  contributorToken = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
  authorToken = (await t.userWithToken(30, ['content:read', 'content:write'])).token;
});
afterAll(() => t.close());

describe('publish and unpublish', () => {
  it('publishes a draft: published with publishedAt, no liveData, visible to subscribers', async () => {
    const entry = await create({ title: 'Fresh', body: 'Words' });
    expect(entry.status).toBe('draft');
    expectError(await call('GET', `/content/posts/${entry.id}`, { token: subscriberToken }), 404, 'NOT_FOUND');
    t.clock.advance(1000);
    // A Contributor drafts; publishing is an Author's (issue 31).
    expectError(await call('POST', `/content/posts/${entry.id}/publish`, { token: contributorToken }), 403, 'FORBIDDEN');
    const item = ok(await call('POST', `/content/posts/${entry.id}/publish`, { token: authorToken })).item;
    expect(item).toMatchObject({ id: entry.id, status: 'published', publishedAt: t.clock.now().toISOString(), data: entry.data });
    expect(item).not.toHaveProperty('liveData');
    expect(item.updatedAt > entry.updatedAt).toBe(true);
    expect(await read(entry.id)).toEqual(item);
    const seen = ok(await call('GET', `/content/posts/${entry.id}`, { token: subscriberToken })).item;
    expect(seen).toMatchObject({ status: 'published', data: { title: 'Fresh', body: 'Words' } });
  });

  it('publishes a staged draft: its values go live and liveData disappears', async () => {
    const staged = await publishedWithDraft('Old', 'New');
    expect(staged).toMatchObject({ status: 'published', data: { title: 'New' }, liveData: { title: 'Old' } });
    expect(ok(await call('GET', `/content/posts/${staged.id}`, { token: subscriberToken })).item.data.title).toBe('Old');
    const item = ok(await call('POST', `/content/posts/${staged.slug}/publish`)).item;
    expect(item).toMatchObject({ status: 'published', data: { title: 'New' } });
    expect(item).not.toHaveProperty('liveData');
    expect(await read(staged.id)).toEqual(item);
    expect(ok(await call('GET', `/content/posts/${staged.id}`, { token: subscriberToken })).item.data.title).toBe('New');
  });

  it('publishes a scheduled entry at once and drops its schedule', async () => {
    const entry = await create({ title: 'Early' });
    ok(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: future() } }));
    const item = ok(await call('POST', `/content/posts/${entry.id}/publish`)).item;
    expect(item.status).toBe('published');
    expect(item).not.toHaveProperty('scheduledAt');
    expect(ok(await call('GET', '/content/posts?status=scheduled')).items.map((e: { id: string }) => e.id)).not.toContain(entry.id);
  });

  it('publishing changes _rev, so an update based on the read before it is a 409', async () => {
    const entry = await create({ title: 'Raced' });
    const item = ok(await call('POST', `/content/posts/${entry.id}/publish`)).item;
    expect(item._rev).not.toBe(entry._rev);
    expectError(await call('PUT', `/content/posts/${entry.id}`, { body: { data: { title: 'Stale' }, _rev: entry._rev } }), 409, 'CONFLICT');
    expect(await read(entry.id)).toEqual(item);
  });

  it('unpublishes: back to draft, content kept, hidden from subscribers', async () => {
    const entry = await create({ title: 'Gone soon', body: 'Kept' }, { status: 'published' });
    expect(entry.status).toBe('published');
    const item = ok(await call('POST', `/content/posts/${entry.id}/unpublish`)).item;
    expect(item).toMatchObject({ status: 'draft', data: { title: 'Gone soon', body: 'Kept' } });
    expect(item).not.toHaveProperty('publishedAt');
    expect(await read(entry.id)).toEqual(item);
    expectError(await call('GET', `/content/posts/${entry.id}`, { token: subscriberToken }), 404, 'NOT_FOUND');
    const listed = ok(await call('GET', '/content/posts', { token: subscriberToken })).items;
    expect(listed.map((e: { id: string }) => e.id)).not.toContain(entry.id);
  });

  it('unpublishes a scheduled entry: draft with no schedule left', async () => {
    const entry = await create({ title: 'Planned' });
    ok(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: future() } }));
    const item = ok(await call('POST', `/content/posts/${entry.id}/unpublish`)).item;
    expect(item.status).toBe('draft');
    expect(item).not.toHaveProperty('scheduledAt');
  });
});

describe('schedule and unschedule', () => {
  it('schedules a draft for a future time: status scheduled, scheduledAt in UTC with milliseconds', async () => {
    const entry = await create({ title: 'Later' });
    const item = ok(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: '2099-03-04T10:20:30+02:00' } })).item;
    expect(item).toMatchObject({ status: 'scheduled', scheduledAt: '2099-03-04T08:20:30.000Z', data: { title: 'Later' } });
    expect(item).not.toHaveProperty('publishedAt');
    expect(await read(entry.id)).toEqual(item);
    expect(ok(await call('GET', '/content/posts?status=scheduled')).items.map((e: { id: string }) => e.id)).toContain(entry.id);
    expectError(await call('GET', `/content/posts/${entry.id}`, { token: subscriberToken }), 404, 'NOT_FOUND');
  });

  it('schedules again to move the time', async () => {
    const entry = await create({ title: 'Moved' });
    ok(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: future(1) } }));
    const second = future(2);
    const item = ok(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: second } })).item;
    expect(item).toMatchObject({ status: 'scheduled', scheduledAt: second });
  });

  it('schedules a staged draft over a live version: subscribers keep seeing the live values', async () => {
    const staged = await publishedWithDraft('Live', 'Next');
    const at = future();
    const item = ok(await call('POST', `/content/posts/${staged.id}/schedule`, { body: { scheduledAt: at } })).item;
    expect(item).toMatchObject({ status: 'scheduled', scheduledAt: at, data: { title: 'Next' }, liveData: { title: 'Live' } });
    const seen = ok(await call('GET', `/content/posts/${staged.id}`, { token: subscriberToken })).item;
    expect(seen).toMatchObject({ status: 'published', data: { title: 'Live' } });
    expect(seen).not.toHaveProperty('scheduledAt');
    expect(seen).not.toHaveProperty('liveData');
  });

  it('refuses a time in the past or exactly now with 400 naming scheduledAt, leaving the entry as it was', async () => {
    const entry = await create({ title: 'Not yet' });
    const past = new Date(t.clock.now().getTime() - 60_000).toISOString();
    for (const scheduledAt of [past, t.clock.now().toISOString(), '2001-01-01T00:00:00Z']) {
      const response = await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt } });
      expect({ scheduledAt, paths: issuePaths(response) }).toEqual({ scheduledAt, paths: ['scheduledAt'] });
    }
    expect(await read(entry.id)).toEqual(entry);
  });

  it('refuses what is not a date-time with 400 naming scheduledAt', async () => {
    const entry = await create({ title: 'Bad dates' });
    for (const scheduledAt of ['tomorrow', '2099-01-01', '2099-13-01T00:00:00Z', '2099-02-30T10:00:00Z', '', 'x'.repeat(65), 4102444800000, null]) {
      const response = await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt } });
      expect({ scheduledAt, paths: issuePaths(response) }).toEqual({ scheduledAt, paths: ['scheduledAt'] });
    }
    expect(issuePaths(await call('POST', `/content/posts/${entry.id}/schedule`, { body: {} }))).toEqual(['scheduledAt']);
    expect(issuePaths(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: future(), extra: 1 } }))).not.toEqual([]);
    expect(await read(entry.id)).toEqual(entry);
  });

  it('unschedules a scheduled draft back to draft', async () => {
    const entry = await create({ title: 'Cancelled' });
    ok(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: future() } }));
    const item = ok(await call('DELETE', `/content/posts/${entry.id}/schedule`)).item;
    expect(item).toMatchObject({ status: 'draft', data: { title: 'Cancelled' } });
    expect(item).not.toHaveProperty('scheduledAt');
    expect(item).not.toHaveProperty('publishedAt');
    expect(await read(entry.id)).toEqual(item);
    expect(ok(await call('GET', '/content/posts?status=scheduled')).items.map((e: { id: string }) => e.id)).not.toContain(entry.id);
  });

  it('unschedules a scheduled draft over a live version: stays published, the draft stays staged', async () => {
    const staged = await publishedWithDraft('Live one', 'Staged one');
    ok(await call('POST', `/content/posts/${staged.id}/schedule`, { body: { scheduledAt: future() } }));
    const item = ok(await call('DELETE', `/content/posts/${staged.id}/schedule`)).item;
    expect(item).toMatchObject({ status: 'published', publishedAt: staged.publishedAt, data: { title: 'Staged one' }, liveData: { title: 'Live one' } });
    expect(item).not.toHaveProperty('scheduledAt');
    expect(await read(staged.id)).toEqual(item);
  });

  it('unschedules a published entry scheduled without a staged draft: published again', async () => {
    const entry = await create({ title: 'Already live' }, { status: 'published' });
    expect(ok(await call('POST', `/content/posts/${entry.id}/schedule`, { body: { scheduledAt: future() } })).item.status).toBe('scheduled');
    const item = ok(await call('DELETE', `/content/posts/${entry.id}/schedule`)).item;
    expect(item).toMatchObject({ status: 'published', publishedAt: entry.publishedAt, data: { title: 'Already live' } });
    expect(item).not.toHaveProperty('scheduledAt');
  });

  it('unscheduling an entry that is not scheduled is a 200 no-op', async () => {
    const draft = await create({ title: 'Plain draft' });
    const published = await create({ title: 'Plain live' }, { status: 'published' });
    const staged = await publishedWithDraft('Plain old', 'Plain new');
    t.clock.advance(1000);
    for (const entry of [draft, published, staged]) {
      expect(ok(await call('DELETE', `/content/posts/${entry.id}/schedule`)).item).toEqual(entry);
      expect(await read(entry.id)).toEqual(entry);
    }
  });
});

describe('trash, restore and permanent delete', () => {
  it('moves an entry to the trash: 404 on get, update and actions, gone from lists, listed in the trash', async () => {
    const entry = await create({ title: 'Trashed' }, { status: 'published' });
    t.clock.advance(1000);
    expect(ok(await call('DELETE', `/content/posts/${entry.id}`))).toEqual({ success: true });
    expectError(await call('GET', `/content/posts/${entry.id}`), 404, 'NOT_FOUND');
    expectError(await call('GET', `/content/posts/${entry.slug}`), 404, 'NOT_FOUND');
    expectError(await call('PUT', `/content/posts/${entry.id}`, { body: { data: { title: 'X' } } }), 404, 'NOT_FOUND');
    expectError(await call('POST', `/content/posts/${entry.id}/publish`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/content/posts/${entry.id}`), 404, 'NOT_FOUND');
    expect(ok(await call('GET', '/content/posts?limit=100')).items.map((e: { id: string }) => e.id)).not.toContain(entry.id);
    expect(ok(await call('GET', '/content/posts', { token: subscriberToken })).items.map((e: { id: string }) => e.id)).not.toContain(entry.id);
    const trashed = ok(await call('GET', '/content/posts/trash')).items.find((e: { id: string }) => e.id === entry.id);
    expect(trashed).toMatchObject({ id: entry.id, status: 'published', deletedAt: t.clock.now().toISOString(), data: { title: 'Trashed' } });
  });

  it('lists the trash newest deletion first, in pages', async () => {
    const first = await create({ title: 'Trash A' });
    const second = await create({ title: 'Trash B' });
    const third = await create({ title: 'Trash C' });
    for (const entry of [second, third, first]) {
      t.clock.advance(1000);
      ok(await call('DELETE', `/content/posts/${entry.id}`));
    }
    const ids = ok(await call('GET', '/content/posts/trash?limit=100', { token: contributorToken })).items.map((e: { id: string }) => e.id);
    expect(ids.slice(0, 3)).toEqual([first.id, third.id, second.id]);
    const page1 = ok(await call('GET', '/content/posts/trash?limit=2'));
    expect(page1.items.map((e: { id: string }) => e.id)).toEqual([first.id, third.id]);
    const page2 = ok(await call('GET', `/content/posts/trash?limit=2&cursor=${encodeURIComponent(page1.nextCursor)}`));
    expect(page2.items[0].id).toBe(second.id);
    for (const limit of ['0', '101', 'x']) expect(issuePaths(await call('GET', `/content/posts/trash?limit=${limit}`))).toEqual(['limit']);
    expect(issuePaths(await call('GET', '/content/posts/trash?cursor=not-a-cursor!'))).toEqual(['cursor']);
  });

  it('pages the trash one by one when deletions share a time, each entry seen once', async () => {
    const trashed: string[] = [];
    for (const title of ['Tie 1', 'Tie 2', 'Tie 3']) {
      const entry = await create({ title });
      ok(await call('DELETE', `/content/posts/${entry.id}`));
      trashed.push(entry.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 200; guard++) {
      const page = ok(await call('GET', `/content/posts/trash?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
      seen.push(...page.items.map((e: { id: string }) => e.id));
      cursor = page.nextCursor;
      if (cursor === undefined) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 3).sort()).toEqual([...trashed].sort());
  });

  it("keeps a trashed entry's slug taken, so restoring never clashes", async () => {
    const entry = await create({ title: 'Reserved while binned' });
    ok(await call('DELETE', `/content/posts/${entry.id}`));
    expect((await create({ title: 'Reserved while binned' })).slug).toBe(`${entry.slug}-2`);
    expectError(await call('POST', '/content/posts', { body: { data: { title: 'Other' }, slug: entry.slug } }), 409, 'DUPLICATE_SLUG');
    expect(ok(await call('POST', `/content/posts/${entry.id}/restore`)).item.slug).toBe(entry.slug);
  });

  it('restores a trashed entry with its status', async () => {
    const published = await create({ title: 'Back live' }, { status: 'published' });
    const draft = await create({ title: 'Back draft' });
    for (const entry of [published, draft]) {
      ok(await call('DELETE', `/content/posts/${entry.id}`));
      const item = ok(await call('POST', `/content/posts/${entry.id}/restore`)).item;
      expect(item).toMatchObject({ id: entry.id, status: entry.status, data: entry.data });
      expect(item).not.toHaveProperty('deletedAt');
      expect(await read(entry.id)).toEqual(item);
    }
    expect(ok(await call('GET', `/content/posts/${published.id}`, { token: subscriberToken })).item.data.title).toBe('Back live');
    const trashIds = ok(await call('GET', '/content/posts/trash?limit=100')).items.map((e: { id: string }) => e.id);
    expect(trashIds).not.toContain(published.id);
    expect(trashIds).not.toContain(draft.id);
  });

  it('restoring an entry that is not in the trash is a 200 no-op', async () => {
    const entry = await create({ title: 'Never trashed' });
    t.clock.advance(1000);
    expect(ok(await call('POST', `/content/posts/${entry.id}/restore`)).item).toEqual(entry);
    expect(await read(entry.id)).toEqual(entry);
  });

  it('refuses to permanently delete an entry that is not in the trash', async () => {
    const entry = await create({ title: 'Still here' });
    expect(issuePaths(await call('DELETE', `/content/posts/${entry.id}/permanent`))).not.toEqual([]);
    expect(await read(entry.id)).toEqual(entry);
  });

  it('permanently deletes a trashed entry: 404 everywhere afterwards, revisions gone', async () => {
    const entry = await create({ title: 'Doomed' }, { status: 'published' });
    const revisions = ok(await call('GET', `/content/posts/${entry.id}/revisions`)).items;
    expect(revisions.length).toBeGreaterThan(0);
    ok(await call('DELETE', `/content/posts/${entry.id}`));
    expect(ok(await call('DELETE', `/content/posts/${entry.id}/permanent`))).toEqual({ success: true });
    expectError(await call('GET', `/content/posts/${entry.id}`), 404, 'NOT_FOUND');
    expectError(await call('POST', `/content/posts/${entry.id}/restore`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/content/posts/${entry.id}/permanent`), 404, 'NOT_FOUND');
    expectError(await call('GET', `/content/posts/${entry.id}/revisions`), 404, 'NOT_FOUND');
    for (const revision of revisions) expectError(await call('GET', `/revisions/${revision.id}`), 404, 'NOT_FOUND');
    expect(ok(await call('GET', '/content/posts/trash?limit=100')).items.map((e: { id: string }) => e.id)).not.toContain(entry.id);
    // The slug is free again.
    expect((await create({ title: 'Doomed' })).slug).toBe(entry.slug);
  });
});

describe('discard draft', () => {
  it('goes back to the live values and drops the staged draft', async () => {
    const staged = await publishedWithDraft('Keep me', 'Throw me');
    const item = ok(await call('POST', `/content/posts/${staged.id}/discard-draft`)).item;
    expect(item).toMatchObject({ status: 'published', data: { title: 'Keep me' }, publishedAt: staged.publishedAt });
    expect(item).not.toHaveProperty('liveData');
    expect(await read(staged.id)).toEqual(item);
    expect(ok(await call('GET', `/content/posts/${staged.id}/compare`)).hasChanges).toBe(false);
  });

  it('discards a scheduled draft over a live version: published, schedule gone', async () => {
    const staged = await publishedWithDraft('Stay', 'Was planned');
    ok(await call('POST', `/content/posts/${staged.id}/schedule`, { body: { scheduledAt: future() } }));
    const item = ok(await call('POST', `/content/posts/${staged.id}/discard-draft`)).item;
    expect(item).toMatchObject({ status: 'published', data: { title: 'Stay' } });
    expect(item).not.toHaveProperty('scheduledAt');
    expect(item).not.toHaveProperty('liveData');
  });

  it('leaves a published entry without a draft as it is', async () => {
    const entry = await create({ title: 'Nothing staged' }, { status: 'published' });
    const item = ok(await call('POST', `/content/posts/${entry.id}/discard-draft`)).item;
    expect(item).toMatchObject({ status: 'published', data: { title: 'Nothing staged' } });
  });

  it('refuses an entry never published with 400, leaving it as it was', async () => {
    const entry = await create({ title: 'Only a draft' });
    expect(issuePaths(await call('POST', `/content/posts/${entry.id}/discard-draft`))).not.toEqual([]);
    expect(await read(entry.id)).toEqual(entry);
  });
});

describe('duplicate', () => {
  it('copies into a new draft with a (Copy) title, a new slug and unique fields empty', async () => {
    const source = await create({ title: 'Original', body: 'Same body', code: 'ORIG-1' }, { status: 'published' });
    const response = await call('POST', `/content/posts/${source.id}/duplicate`, { token: contributorToken });
    expect(response.status).toBe(201);
    const copy = response.body.data.item;
    expect(copy).toMatchObject({ status: 'draft', slug: 'original-copy', locale: source.locale, data: { title: 'Original (Copy)', body: 'Same body', code: null } });
    expect(copy.id).not.toBe(source.id);
    expect(copy.translationGroup).not.toBe(source.translationGroup);
    expect(copy).not.toHaveProperty('publishedAt');
    expect(await read(copy.id)).toEqual(copy);
    expect(await read(source.id)).toEqual(source);
    const again = await call('POST', `/content/posts/${source.slug}/duplicate`);
    expect(again.status).toBe(201);
    expect(again.body.data.item.slug).toBe('original-copy-2');
  });

  it('copies the staged draft values, not the live ones', async () => {
    const staged = await publishedWithDraft('Live title', 'Draft title');
    const copy = (await call('POST', `/content/posts/${staged.id}/duplicate`)).body.data.item;
    expect(copy).toMatchObject({ status: 'draft', data: { title: 'Draft title (Copy)' } });
    expect(copy).not.toHaveProperty('liveData');
  });
});

describe('compare', () => {
  it('a never published entry has published null and changes', async () => {
    const entry = await create({ title: 'Unseen', body: 'B' });
    const data = ok(await call('GET', `/content/posts/${entry.id}/compare`, { token: contributorToken }));
    expect(data).toEqual({ published: null, draft: entry.data, hasChanges: true });
  });

  it('a published entry without a draft has no changes', async () => {
    const entry = await create({ title: 'Even' }, { status: 'published' });
    expect(ok(await call('GET', `/content/posts/${entry.id}/compare`))).toEqual({ published: entry.data, draft: entry.data, hasChanges: false });
  });

  it('a staged draft shows both versions', async () => {
    const staged = await publishedWithDraft('Side A', 'Side B');
    const data = ok(await call('GET', `/content/posts/${staged.id}/compare`));
    expect(data).toEqual({ published: staged.liveData, draft: staged.data, hasChanges: true });
    expect(data.published.title).toBe('Side A');
    expect(data.draft.title).toBe('Side B');
  });

  it('a trashed entry is 404', async () => {
    const entry = await create({ title: 'Compare trashed' });
    ok(await call('DELETE', `/content/posts/${entry.id}`));
    expectError(await call('GET', `/content/posts/${entry.id}/compare`), 404, 'NOT_FOUND');
  });
});

describe('translations', () => {
  it('lists every member of the group with its locale, status and trash flag', async () => {
    const english = await create({ title: 'Hello' }, { status: 'published' });
    const french = await create({ title: 'Bonjour' }, { locale: 'fr', translationOf: english.id });
    const german = await create({ title: 'Hallo' }, { locale: 'de', translationOf: english.id, status: 'published' });
    ok(await call('DELETE', `/content/posts/${german.id}`));
    for (const ref of [english.id, french.id, english.slug]) {
      const data = ok(await call('GET', `/content/posts/${ref}/translations`));
      expect(data.translationGroup).toBe(english.translationGroup);
      const items = [...data.items].sort((a, b) => a.locale.localeCompare(b.locale));
      expect(items).toEqual([
        { id: german.id, locale: 'de', slug: german.slug, status: 'published', updatedAt: german.updatedAt, trashed: true },
        { id: english.id, locale: 'en', slug: english.slug, status: 'published', updatedAt: english.updatedAt, trashed: false },
        { id: french.id, locale: 'fr', slug: french.slug, status: 'draft', updatedAt: french.updatedAt, trashed: false },
      ]);
    }
  });

  it('an entry on its own is a group of one', async () => {
    const entry = await create({ title: 'Alone' });
    const data = ok(await call('GET', `/content/posts/${entry.id}/translations`));
    expect(data).toEqual({ translationGroup: entry.translationGroup, items: [{ id: entry.id, locale: 'en', slug: entry.slug, status: 'draft', updatedAt: entry.updatedAt, trashed: false }] });
  });

  it('subscribers see only live members, and a draft member is 404', async () => {
    const english = await create({ title: 'Public' }, { status: 'published' });
    const french = await create({ title: 'Publique' }, { locale: 'fr', translationOf: english.id });
    const data = ok(await call('GET', `/content/posts/${english.id}/translations`, { token: subscriberToken }));
    expect(data.items.map((item: { id: string }) => item.id)).toEqual([english.id]);
    expectError(await call('GET', `/content/posts/${french.id}/translations`, { token: subscriberToken }), 404, 'NOT_FOUND');
  });
});

describe('access and unknown targets on every lifecycle endpoint', () => {
  type Endpoint = { method: string; path: (collection: string, id: string) => string; body?: () => unknown; write: boolean };
  const endpoints: Endpoint[] = [
    { method: 'POST', path: (c, id) => `/content/${c}/${id}/publish`, write: true },
    { method: 'POST', path: (c, id) => `/content/${c}/${id}/unpublish`, write: true },
    { method: 'POST', path: (c, id) => `/content/${c}/${id}/schedule`, body: () => ({ scheduledAt: future() }), write: true },
    { method: 'DELETE', path: (c, id) => `/content/${c}/${id}/schedule`, write: true },
    { method: 'DELETE', path: (c, id) => `/content/${c}/${id}`, write: true },
    { method: 'POST', path: (c, id) => `/content/${c}/${id}/restore`, write: true },
    { method: 'DELETE', path: (c, id) => `/content/${c}/${id}/permanent`, write: true },
    { method: 'POST', path: (c, id) => `/content/${c}/${id}/discard-draft`, write: true },
    { method: 'POST', path: (c, id) => `/content/${c}/${id}/duplicate`, write: true },
    { method: 'GET', path: (c, id) => `/content/${c}/${id}/compare`, write: false },
    { method: 'GET', path: (c, id) => `/content/${c}/${id}/translations`, write: false },
    { method: 'GET', path: (c) => `/content/${c}/trash`, write: false },
  ];
  const label = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path(':c', ':id')}`;
  const send = (endpoint: Endpoint, collection: string, id: string, token: string | undefined) =>
    call(endpoint.method, endpoint.path(collection, id), { token, ...(endpoint.body ? { body: endpoint.body() } : {}) });

  let target: { id: string };
  beforeAll(async () => {
    target = await create({ title: 'Guarded' }, { status: 'published' });
  });

  it('answers 401 without a token or with a bad one', async () => {
    for (const endpoint of endpoints) {
      for (const token of [undefined, 'not-a-real-token']) {
        const response = await send(endpoint, 'posts', target.id, token);
        expect({ endpoint: label(endpoint), status: response.status, code: response.body?.error?.code }).toEqual({ endpoint: label(endpoint), status: 401, code: 'UNAUTHORIZED' });
      }
    }
    expect(await read(target.id)).toEqual(target);
  });

  it('answers 403 with requiredScope when the token lacks the scope', async () => {
    for (const endpoint of endpoints) {
      const [token, scope] = endpoint.write ? [readOnlyToken, 'content:write'] : [noContentToken, 'content:read'];
      const response = await send(endpoint, 'posts', target.id, token);
      expect({ endpoint: label(endpoint), status: response.status, details: response.body?.error?.details }).toEqual({
        endpoint: label(endpoint),
        status: 403,
        details: { requiredScope: scope },
      });
    }
    for (const endpoint of endpoints.filter((e) => e.write)) expectForbidden(await send(endpoint, 'posts', target.id, subscriberToken), { requiredScope: 'content:write' });
    expect(await read(target.id)).toEqual(target);
  });

  it('answers 404 for an unknown collection, an unknown id and an unknown slug', async () => {
    for (const endpoint of endpoints) {
      const unknownCollection = await send(endpoint, 'nope', target.id, t.adminToken);
      expect({ endpoint: label(endpoint), status: unknownCollection.status, code: unknownCollection.body?.error?.code }).toEqual({ endpoint: label(endpoint), status: 404, code: 'NOT_FOUND' });
      if (endpoint.path('c', 'x').includes('/x')) {
        for (const id of [unknownId, 'no-such-entry']) {
          const unknownEntry = await send(endpoint, 'posts', id, t.adminToken);
          expect({ endpoint: label(endpoint), id, status: unknownEntry.status, code: unknownEntry.body?.error?.code }).toEqual({ endpoint: label(endpoint), id, status: 404, code: 'NOT_FOUND' });
        }
      }
    }
    expect(await read(target.id)).toEqual(target);
  });

  it('gives subscribers 403 requiredRole 20 for the trash and compare, and 404 for a draft entry', async () => {
    expectForbidden(await call('GET', '/content/posts/trash', { token: subscriberToken }), { requiredRole: 20 });
    expectForbidden(await call('GET', `/content/posts/${target.id}/compare`, { token: subscriberToken }), { requiredRole: 20 });
    const draft = await create({ title: 'Hidden draft' });
    expectError(await call('GET', `/content/posts/${draft.id}`, { token: subscriberToken }), 404, 'NOT_FOUND');
    expectError(await call('GET', `/content/posts/${draft.slug}`, { token: subscriberToken }), 404, 'NOT_FOUND');
    expectForbidden(await call('GET', '/content/posts?status=draft', { token: subscriberToken }), { requiredRole: 20 });
  });
});
