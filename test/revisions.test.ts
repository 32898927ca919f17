import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';
import type { User } from '../src/users/schemas.ts';

// Revisions (DECISIONS §3): one on every save, listed newest first, restorable into the draft without publishing.

const unknownId = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const ok = expectSuccess;

let t: TestApp;
/** role 40 with content:read only: lacks content:write. */
let readOnlyToken: string;
/** role 40 with media:read only: lacks content:read. */
let noContentToken: string;
let subscriberToken: string;
let contributor: { user: User; token: string };

interface Revision {
  id: string;
  collection: string;
  entryId: string;
  slug: string;
  data: Record<string, unknown>;
  authorId?: string;
  authorName?: string;
  createdAt: string;
}

function call(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<ApiResponse> {
  return t.request(method, `/_cms/api${path}`, { token: t.adminToken, ...options });
}

async function create(data: Record<string, unknown>, extra: Record<string, unknown> = {}, collection = 'articles') {
  const response = await call('POST', `/content/${collection}`, { body: { data, ...extra } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.item;
}

async function update(id: string, body: Record<string, unknown>, token = t.adminToken) {
  return ok(await call('PUT', `/content/articles/${id}`, { body, token })).item;
}

async function read(id: string) {
  return ok(await call('GET', `/content/articles/${id}`)).item;
}

async function revisions(id: string, query = ''): Promise<{ items: Revision[]; total: number }> {
  return ok(await call('GET', `/content/articles/${id}/revisions${query}`));
}

function expectForbidden(response: ApiResponse, detail: Record<string, unknown>) {
  expect(expectError(response, 403, 'FORBIDDEN').details).toMatchObject(detail);
}

beforeAll(async () => {
  t = await createTestApp();
  for (const [slug, supports] of [
    ['articles', undefined],
    ['notes', ['drafts']],
  ] as const) {
    const response = await call('POST', '/schema/collections', { body: { slug, label: slug, ...(supports ? { supports } : {}) } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    for (const field of [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'summary', label: 'Summary', type: 'text' },
    ]) {
      const added = await call('POST', `/schema/collections/${slug}/fields`, { body: field });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
  }
  readOnlyToken = (await t.userWithToken(40, ['content:read'])).token;
  noContentToken = (await t.userWithToken(40, ['media:read'])).token;
  subscriberToken = (await t.userWithToken(10, ['content:read'])).token;
  contributor = await t.userWithToken(20, ['content:read', 'content:write']);
});
afterAll(() => t.close());

describe('a revision on every save', () => {
  it('adds one per create, update, slug change, publish and status change, holding the values saved', async () => {
    const saves: [string, () => Promise<{ id: string; slug: string; data: Record<string, unknown> }>][] = [];
    let entry = await create({ title: 'Step one' });
    const check = async (step: string, expected: number) => {
      const list = await revisions(entry.id);
      expect({ step, total: list.total, count: list.items.length }).toEqual({ step, total: expected, count: expected });
      expect({ step, newest: list.items[0] }).toMatchObject({ step, newest: { entryId: entry.id, slug: entry.slug, data: entry.data } });
    };
    await check('create', 1);
    saves.push(
      ['update data', () => update(entry.id, { data: { summary: 'Added' } })],
      ['update slug', () => update(entry.id, { slug: 'renamed-step' })],
      ['publish endpoint', async () => ok(await call('POST', `/content/articles/${entry.id}/publish`)).item],
      ['stage a draft', () => update(entry.id, { data: { title: 'Step two' } })],
      ['PUT status published', () => update(entry.id, { status: 'published', data: { title: 'Step three' } })],
      ['PUT status draft', () => update(entry.id, { status: 'draft' })],
    );
    let expected = 1;
    for (const [step, save] of saves) {
      t.clock.advance(1000);
      entry = await save();
      await check(step, ++expected);
    }
    expect((await revisions(entry.id)).items.map((revision) => revision.slug)).toContain('renamed-step');
  });

  it('gives a duplicate its own history of one revision', async () => {
    const source = await create({ title: 'Copied' });
    await update(source.id, { data: { summary: 'Twice' } });
    const copy = (await call('POST', `/content/articles/${source.id}/duplicate`)).body.data.item;
    const list = await revisions(copy.id);
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ entryId: copy.id, data: copy.data });
    expect((await revisions(source.id)).total).toBe(2);
  });
});

describe('listing revisions', () => {
  let entry: { id: string; slug: string };
  let saved: { at: string; by: string; name: string; title: string }[];
  beforeAll(async () => {
    saved = [];
    t.clock.advance(1000);
    entry = await create({ title: 'Version 1' });
    saved.push({ at: t.clock.now().toISOString(), by: t.admin.id, name: t.admin.name, title: 'Version 1' });
    for (let version = 2; version <= 4; version++) {
      t.clock.advance(1000);
      const author = version % 2 === 0 ? contributor : { user: t.admin, token: t.adminToken };
      await update(entry.id, { data: { title: `Version ${version}` } }, author.token);
      saved.push({ at: t.clock.now().toISOString(), by: author.user.id, name: author.user.name, title: `Version ${version}` });
    }
  });

  it("lists every revision newest first with its author (id and name, for a client's list), time, slug and values", async () => {
    const list = await revisions(entry.id);
    expect(list.total).toBe(4);
    expect(list.items.map((revision) => revision.data.title)).toEqual(['Version 4', 'Version 3', 'Version 2', 'Version 1']);
    expect(list.items.map((revision) => ({ at: revision.createdAt, by: revision.authorId, name: revision.authorName, title: revision.data.title }))).toEqual([...saved].reverse());
    for (const revision of list.items) {
      expect(Object.keys(revision).sort()).toEqual(['authorId', 'authorName', 'collection', 'createdAt', 'data', 'entryId', 'id', 'slug']);
      expect(revision).toMatchObject({ collection: 'articles', entryId: entry.id, slug: entry.slug });
      expect(revision.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(revision.data).toEqual({ title: revision.data.title, summary: null });
    }
    expect(await revisions(entry.slug)).toEqual(list);
  });

  it('takes a limit of 1-100 and keeps total counting all', async () => {
    const all = (await revisions(entry.id)).items;
    expect(await revisions(entry.id, '?limit=1')).toEqual({ items: all.slice(0, 1), total: 4 });
    expect(await revisions(entry.id, '?limit=3')).toEqual({ items: all.slice(0, 3), total: 4 });
    expect(await revisions(entry.id, '?limit=100')).toEqual({ items: all, total: 4 });
    for (const limit of ['0', '101', '-1', '1.5', 'ten']) {
      const response = await call('GET', `/content/articles/${entry.id}/revisions?limit=${limit}`);
      expect({ limit, paths: issuePaths(response) }).toEqual({ limit, paths: ['limit'] });
    }
  });

  it('returns the newest 50 by default while total counts them all', async () => {
    const busy = await create({ title: 'Busy 0' });
    for (let save = 1; save <= 51; save++) await update(busy.id, { data: { title: `Busy ${save}` } });
    const list = await revisions(busy.id);
    expect(list.total).toBe(52);
    expect(list.items.map((revision) => revision.data.title)).toEqual(Array.from({ length: 50 }, (_, index) => `Busy ${51 - index}`));
  });

  it('refuses a collection without revisions with 400', async () => {
    const note = await create({ title: 'No history' }, {}, 'notes');
    const response = await call('GET', `/content/notes/${note.id}/revisions`);
    expect(issuePaths(response).length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown collection or entry', async () => {
    expectError(await call('GET', `/content/nope/${entry.id}/revisions`), 404, 'NOT_FOUND');
    expectError(await call('GET', `/content/articles/${unknownId}/revisions`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/content/articles/no-such-entry/revisions'), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token, 403 requiredScope without content:read, 403 requiredRole 20 to a subscriber', async () => {
    const published = await create({ title: 'Public history' }, { status: 'published' });
    expectError(await call('GET', `/content/articles/${published.id}/revisions`, { token: undefined }), 401, 'UNAUTHORIZED');
    expectForbidden(await call('GET', `/content/articles/${published.id}/revisions`, { token: noContentToken }), { requiredScope: 'content:read' });
    expectForbidden(await call('GET', `/content/articles/${published.id}/revisions`, { token: subscriberToken }), { requiredRole: 20 });
    expect(ok(await call('GET', `/content/articles/${published.id}/revisions`, { token: readOnlyToken })).total).toBe(1);
  });
});

describe('getting a revision', () => {
  it('returns the revision as listed', async () => {
    const entry = await create({ title: 'Single', summary: 'One' });
    const [listed] = (await revisions(entry.id)).items;
    const response = await call('GET', `/revisions/${listed!.id}`, { token: readOnlyToken });
    expect(ok(response)).toEqual({ item: listed });
    expect(listed).toMatchObject({ collection: 'articles', entryId: entry.id, slug: entry.slug, data: { title: 'Single', summary: 'One' }, authorId: t.admin.id });
  });

  it('answers 404 for an unknown revision, 401 without a token, 403 without scope or role', async () => {
    const entry = await create({ title: 'Guarded revision' }, { status: 'published' });
    const [revision] = (await revisions(entry.id)).items;
    expectError(await call('GET', `/revisions/${unknownId}`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/revisions/not-a-revision'), 404, 'NOT_FOUND');
    expectError(await call('GET', `/revisions/${revision!.id}`, { token: undefined }), 401, 'UNAUTHORIZED');
    expectForbidden(await call('GET', `/revisions/${revision!.id}`, { token: noContentToken }), { requiredScope: 'content:read' });
    expectForbidden(await call('GET', `/revisions/${revision!.id}`, { token: subscriberToken }), { requiredRole: 20 });
  });
});

describe('restoring a revision', () => {
  /** The newest revision of the entry holding this title. */
  async function revisionTitled(id: string, title: string): Promise<Revision> {
    const match = (await revisions(id)).items.find((revision) => revision.data.title === title);
    if (!match) throw new Error(`no revision titled ${title}`);
    return match;
  }

  it('replaces the staged draft and leaves the live version alone', async () => {
    const entry = await create({ title: 'Live A', summary: 'a' }, { status: 'published' });
    await update(entry.id, { data: { title: 'Draft B', summary: 'b' } });
    const staged = await update(entry.id, { data: { title: 'Draft C', summary: 'c' } });
    const before = await revisions(entry.id);
    const target = await revisionTitled(entry.id, 'Draft B');
    t.clock.advance(1000);
    const response = await call('POST', `/revisions/${target.id}/restore`, { token: contributor.token });
    const item = ok(response).item;
    expect(item).toMatchObject({
      id: entry.id,
      status: 'published',
      publishedAt: entry.publishedAt,
      data: { title: 'Draft B', summary: 'b' },
      liveData: { title: 'Live A', summary: 'a' },
      updatedAt: t.clock.now().toISOString(),
    });
    expect(item._rev).not.toBe(staged._rev);
    expect(await read(entry.id)).toEqual(item);
    const seen = ok(await call('GET', `/content/articles/${entry.id}`, { token: subscriberToken })).item;
    expect(seen.data).toEqual({ title: 'Live A', summary: 'a' });
    expect(ok(await call('GET', `/content/articles/${entry.id}/compare`))).toEqual({ published: item.liveData, draft: item.data, hasChanges: true });
    const after = await revisions(entry.id);
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]).toMatchObject({ data: { title: 'Draft B', summary: 'b' }, authorId: contributor.user.id, createdAt: t.clock.now().toISOString() });
    expect(after.items.slice(1)).toEqual(before.items);
  });

  it('stages an old version over the live one, which goes live only when published', async () => {
    const entry = await create({ title: 'First' }, { status: 'published' });
    await update(entry.id, { data: { title: 'Second' }, status: 'published' });
    const first = await revisionTitled(entry.id, 'First');
    const item = ok(await call('POST', `/revisions/${first.id}/restore`)).item;
    expect(item).toMatchObject({ status: 'published', data: { title: 'First' }, liveData: { title: 'Second' } });
    expect(ok(await call('GET', `/content/articles/${entry.id}`, { token: subscriberToken })).item.data.title).toBe('Second');
    const published = ok(await call('POST', `/content/articles/${entry.id}/publish`)).item;
    expect(published.data.title).toBe('First');
    expect(published).not.toHaveProperty('liveData');
    expect(ok(await call('GET', `/content/articles/${entry.id}`, { token: subscriberToken })).item.data.title).toBe('First');
  });

  it('never publishes a draft entry', async () => {
    const entry = await create({ title: 'Old draft' });
    await update(entry.id, { data: { title: 'New draft' } });
    const old = await revisionTitled(entry.id, 'Old draft');
    const item = ok(await call('POST', `/revisions/${old.id}/restore`)).item;
    expect(item).toMatchObject({ status: 'draft', data: { title: 'Old draft' } });
    expect(item).not.toHaveProperty('publishedAt');
    expect(item).not.toHaveProperty('liveData');
    expect(await read(entry.id)).toEqual(item);
    expectError(await call('GET', `/content/articles/${entry.id}`, { token: subscriberToken }), 404, 'NOT_FOUND');
    expect((await revisions(entry.id)).total).toBe(3);
  });

  it('ignores fields removed since the revision and keeps the value of fields added since', async () => {
    const fields = '/schema/collections/evolving/fields';
    expect((await call('POST', '/schema/collections', { body: { slug: 'evolving', label: 'Evolving' } })).status).toBe(201);
    for (const slug of ['title', 'dropped']) expect((await call('POST', fields, { body: { slug, label: slug, type: 'string' } })).status).toBe(201);
    const entry = await create({ title: 'Then', dropped: 'old value' }, {}, 'evolving');
    ok(await call('PUT', `/content/evolving/${entry.id}`, { body: { data: { title: 'Now' } } }));
    const [, then] = ok(await call('GET', `/content/evolving/${entry.id}/revisions`)).items;
    expect(then.data).toEqual({ title: 'Then', dropped: 'old value' });
    ok(await call('DELETE', `${fields}/dropped`));
    expect((await call('POST', fields, { body: { slug: 'added', label: 'Added', type: 'string' } })).status).toBe(201);
    ok(await call('PUT', `/content/evolving/${entry.id}`, { body: { data: { added: 'kept' } } }));
    const item = ok(await call('POST', `/revisions/${then.id}/restore`)).item;
    expect(item.data).toEqual({ title: 'Then', added: 'kept' });
    expect(ok(await call('GET', `/content/evolving/${entry.id}`)).item).toEqual(item);
  });

  it('answers 404 for a revision of a trashed entry, leaving it in the trash untouched', async () => {
    const entry = await create({ title: 'Binned' });
    const [revision] = (await revisions(entry.id)).items;
    ok(await call('DELETE', `/content/articles/${entry.id}`));
    expectError(await call('POST', `/revisions/${revision!.id}/restore`), 404, 'NOT_FOUND');
    expectError(await call('GET', `/content/articles/${entry.id}`), 404, 'NOT_FOUND');
    expect(ok(await call('GET', '/content/articles/trash?limit=100')).items.map((e: { id: string }) => e.id)).toContain(entry.id);
  });

  it('answers 404 for an unknown revision, 401 without a token, 403 requiredScope without content:write', async () => {
    const entry = await create({ title: 'Protected' }, { status: 'published' });
    await update(entry.id, { data: { title: 'Protected 2' } });
    const revision = await revisionTitled(entry.id, 'Protected');
    const before = await read(entry.id);
    const history = await revisions(entry.id);
    expectError(await call('POST', `/revisions/${unknownId}/restore`), 404, 'NOT_FOUND');
    expectError(await call('POST', '/revisions/not-a-revision/restore'), 404, 'NOT_FOUND');
    expectError(await call('POST', `/revisions/${revision.id}/restore`, { token: undefined }), 401, 'UNAUTHORIZED');
    for (const token of [readOnlyToken, subscriberToken]) {
      expectForbidden(await call('POST', `/revisions/${revision.id}/restore`, { token }), { requiredScope: 'content:write' });
    }
    expect(await read(entry.id)).toEqual(before);
    expect(await revisions(entry.id)).toEqual(history);
  });
});
