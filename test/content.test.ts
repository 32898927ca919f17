import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';
import { tinyPng, uploadMedia } from './support/media.ts';

const ok = expectSuccess;
const unknownId = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Entry {
  id: string;
  type: string;
  slug: string;
  status: string;
  locale: string;
  translationGroup: string;
  data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary field values
  liveData?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  publishedAt?: string;
  scheduledAt?: string;
  _rev: string;
}

function contentPath(collection: string, rest = ''): string {
  return `${api}/content/${collection}${rest}`;
}

async function getEntry(t: TestApp, collection: string, ref: string, token = t.adminToken): Promise<Entry> {
  return ok(await t.request('GET', contentPath(collection, `/${ref}`), { token })).item;
}

async function put(t: TestApp, collection: string, ref: string, body: Record<string, unknown>, token = t.adminToken): Promise<ApiResponse> {
  return t.request('PUT', contentPath(collection, `/${ref}`), { token, body });
}

async function listIds(t: TestApp, collection: string, query = '', token = t.adminToken): Promise<string[]> {
  return ok(await t.request('GET', contentPath(collection, `?limit=100${query}`), { token })).items.map((entry: Entry) => entry.id);
}

async function revisionTotal(t: TestApp, collection: string, id: string): Promise<number> {
  return ok(await t.request('GET', contentPath(collection, `/${id}/revisions`), { token: t.adminToken })).total;
}

/** Revisions of every entry: the one way to see that a refused create left none behind. */
async function allRevisionsCount(t: TestApp): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('revisions')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Every page of a list, following nextCursor until it is absent. */
async function allPages(t: TestApp, collection: string, query: string, from?: string): Promise<{ pages: Entry[][]; entries: Entry[] }> {
  const pages: Entry[][] = [];
  let cursor = from;
  for (let guard = 0; guard < 200; guard++) {
    const url = contentPath(collection, `?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const data = ok(await t.request('GET', url, { token: t.adminToken }));
    pages.push(data.items);
    if (!('nextCursor' in data)) return { pages, entries: pages.flat() };
    expect(typeof data.nextCursor).toBe('string');
    cursor = data.nextCursor;
  }
  throw new Error('pagination did not end');
}

describe('who may use the content endpoints', () => {
  let t: TestApp;
  let entry: Entry;
  let readOnly: string;
  let noContentScope: string;
  let subscriber: string;
  let contributor: string;
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }]);
    entry = await createEntry(t, 'notes', { data: { title: 'Kept' }, status: 'published' });
    readOnly = (await t.userWithToken(40, ['content:read'])).token;
    noContentScope = (await t.userWithToken(40, ['media:read', 'media:write'])).token;
    subscriber = (await t.userWithToken(10, ['content:read'])).token;
    contributor = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
  });
  afterAll(() => t.close());

  const endpoints = (id: string): [method: string, path: string, body?: unknown][] => [
    ['GET', contentPath('notes')],
    ['GET', contentPath('notes', `/${id}`)],
    ['POST', contentPath('notes'), { data: { title: 'New' }, slug: 'intruder' }],
    ['PUT', contentPath('notes', `/${id}`), { data: { title: 'Changed' } }],
    ['DELETE', contentPath('notes', `/${id}`)],
  ];

  it('answers 401 UNAUTHORIZED without a token or with an unknown one', async () => {
    for (const [method, path, body] of endpoints(entry.id)) {
      expectError(await t.request(method, path, { body }), 401, 'UNAUTHORIZED');
      expectError(await t.request(method, path, { body, token: 'folio_not-a-real-token' }), 401, 'UNAUTHORIZED');
    }
  });

  it('refuses reads without content:read with 403 requiredScope content:read', async () => {
    for (const [method, path, body] of endpoints(entry.id).filter(([method]) => method === 'GET')) {
      const error = expectError(await t.request(method, path, { body, token: noContentScope }), 403, 'FORBIDDEN');
      expect(error.details.requiredScope).toBe('content:read');
    }
  });

  it('refuses writes without content:write with 403 requiredScope content:write, changing nothing', async () => {
    const revisionsBefore = await allRevisionsCount(t);
    for (const token of [readOnly, subscriber, noContentScope]) {
      for (const [method, path, body] of endpoints(entry.id).filter(([method]) => method !== 'GET')) {
        const error = expectError(await t.request(method, path, { body, token }), 403, 'FORBIDDEN');
        expect(error.details.requiredScope).toBe('content:write');
      }
    }
    // Authorization comes before the input is read: an invalid body gets the same 403.
    const invalid = await t.request('POST', contentPath('notes'), { token: readOnly, body: { data: { nope: 1 }, bogus: true } });
    expect(expectError(invalid, 403, 'FORBIDDEN').details.requiredScope).toBe('content:write');
    expect(await getEntry(t, 'notes', entry.id)).toEqual(entry);
    expect(await listIds(t, 'notes')).toEqual([entry.id]);
    expect(await allRevisionsCount(t)).toBe(revisionsBefore);
    const free = await createEntry(t, 'notes', { data: { title: 'Now' }, slug: 'intruder' });
    expect(free.slug).toBe('intruder');
    ok(await t.request('DELETE', contentPath('notes', `/${free.id}`), { token: t.adminToken }));
  });

  it('lets any role holding content:read read, and a Contributor with content:write write', async () => {
    for (const token of [readOnly, subscriber, contributor]) {
      expect(ok(await t.request('GET', contentPath('notes'), { token })).items.map((item: Entry) => item.id)).toEqual([entry.id]);
      expect((await getEntry(t, 'notes', entry.id, token)).data).toEqual({ title: 'Kept' });
    }
    const created = await createEntry(t, 'notes', { data: { title: 'By a contributor' } }, contributor);
    expect(ok(await put(t, 'notes', created.id, { data: { title: 'Edited' } }, contributor)).item.data).toEqual({ title: 'Edited' });
    expect(ok(await t.request('DELETE', contentPath('notes', `/${created.id}`), { token: contributor }))).toEqual({ success: true });
  });
});

describe('creating, reading, changing and deleting entries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'articles', [
      { slug: 'title', type: 'string' },
      { slug: 'body', type: 'text' },
      { slug: 'views', type: 'integer' },
    ], { labelSingular: 'Article' });
  });
  afterAll(() => t.close());

  it('creates a draft with 201 and every item key', async () => {
    const response = await t.request('POST', contentPath('articles'), { token: t.adminToken, body: { data: { title: 'First post', views: 3 } } });
    const item: Entry = expectCreated(response).item;
    expect(Object.keys(item).sort()).toEqual(['_rev', 'createdAt', 'data', 'id', 'locale', 'slug', 'status', 'translationGroup', 'type', 'updatedAt']);
    expect(item.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(item).toMatchObject({ type: 'articles', slug: 'first-post', status: 'draft', locale: 'en', translationGroup: item.id });
    // Every field is in data; the ones not given are null.
    expect(item.data).toEqual({ title: 'First post', body: null, views: 3 });
    expect(item.createdAt).toMatch(isoTime);
    expect(item.updatedAt).toBe(item.createdAt);
    expect(typeof item._rev).toBe('string');
    expect(await getEntry(t, 'articles', item.id)).toEqual(item);
    expect(await getEntry(t, 'articles', 'first-post')).toEqual(item);
  });

  it('creates a published entry with publishedAt', async () => {
    const item = await createEntry(t, 'articles', { data: { title: 'Live now' }, status: 'published' });
    expect(item.status).toBe('published');
    expect(item.publishedAt).toBe(item.createdAt);
    expect(await getEntry(t, 'articles', item.id)).toEqual(item);
  });

  it('refuses bodies that do not have the create shape', async () => {
    const post = (body: unknown) => t.request('POST', contentPath('articles'), { token: t.adminToken, body });
    expect(issuePaths(await post({}))).toEqual(['data']);
    expect(issuePaths(await post({ data: [] }))).toEqual(['data']);
    expect(issuePaths(await post({ data: {}, status: 'scheduled' }))).toEqual(['status']);
    expect(issuePaths(await post({ data: {}, status: 'archived' }))).toEqual(['status']);
    expect(issuePaths(await post({ data: {}, extra: 1 })).length).toBe(1);
    expectError(await t.request('POST', contentPath('articles'), { token: t.adminToken, rawBody: '{"data":', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_ERROR');
  });

  it('changes only the fields a PUT gives, with a new updatedAt and _rev', async () => {
    const item = await createEntry(t, 'articles', { data: { title: 'Partial', body: 'Body text', views: 1 } });
    t.clock.advance(5000);
    const updated: Entry = ok(await put(t, 'articles', item.id, { data: { views: 2 } })).item;
    expect(updated.data).toEqual({ title: 'Partial', body: 'Body text', views: 2 });
    expect(updated.slug).toBe(item.slug);
    expect(updated.createdAt).toBe(item.createdAt);
    expect(Date.parse(updated.updatedAt) - Date.parse(item.updatedAt)).toBe(5000);
    expect(updated._rev).not.toBe(item._rev);
    expect(await getEntry(t, 'articles', item.id)).toEqual(updated);
    // An empty PUT is a save that changes no value.
    const empty: Entry = ok(await put(t, 'articles', item.id, {})).item;
    expect(empty.data).toEqual(updated.data);
  });

  it('refuses PUT bodies that do not have the update shape', async () => {
    const item = await createEntry(t, 'articles', { data: { title: 'Shape' } });
    expect(issuePaths(await put(t, 'articles', item.id, { data: 'x' }))).toEqual(['data']);
    expect(issuePaths(await put(t, 'articles', item.id, { status: 'scheduled' }))).toEqual(['status']);
    expect(issuePaths(await put(t, 'articles', item.id, { locale: 'fr' })).length).toBe(1);
    expect(await getEntry(t, 'articles', item.id)).toEqual(item);
  });

  it('moves a deleted entry out of reach: 404 for get, update and a second delete', async () => {
    const item = await createEntry(t, 'articles', { data: { title: 'Doomed' } });
    const response = await t.request('DELETE', contentPath('articles', `/${item.id}`), { token: t.adminToken });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { success: true } });
    expectError(await t.request('GET', contentPath('articles', `/${item.id}`), { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', contentPath('articles', '/doomed'), { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await put(t, 'articles', item.id, { data: { title: 'Back?' } }), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', contentPath('articles', `/${item.id}`), { token: t.adminToken }), 404, 'NOT_FOUND');
    expect(await listIds(t, 'articles')).not.toContain(item.id);
  });

  it('answers 404 NOT_FOUND for an unknown collection or entry on every endpoint', async () => {
    const token = t.adminToken;
    for (const ref of [unknownId, 'no-such-entry']) {
      expectError(await t.request('GET', contentPath('articles', `/${ref}`), { token }), 404, 'NOT_FOUND');
      expectError(await put(t, 'articles', ref, { data: { title: 'x' } }), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', contentPath('articles', `/${ref}`), { token }), 404, 'NOT_FOUND');
    }
    const existing = (await listIds(t, 'articles'))[0]!;
    expectError(await t.request('GET', contentPath('nothing'), { token }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', contentPath('nothing', `/${existing}`), { token }), 404, 'NOT_FOUND');
    expectError(await t.request('POST', contentPath('nothing'), { token, body: { data: {} } }), 404, 'NOT_FOUND');
    expectError(await put(t, 'nothing', existing, { data: {} }), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', contentPath('nothing', `/${existing}`), { token }), 404, 'NOT_FOUND');
  });

  it('keeps entries of one collection out of another', async () => {
    await createCollection(t, 'others', [{ slug: 'title', type: 'string' }]);
    const item = await createEntry(t, 'articles', { data: { title: 'Mine' } });
    expectError(await t.request('GET', contentPath('others', `/${item.id}`), { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await put(t, 'others', item.id, { data: { title: 'Theirs' } }), 404, 'NOT_FOUND');
    expect(await listIds(t, 'others')).toEqual([]);
  });
});

describe('entry slugs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [
      { slug: 'title', type: 'string' },
      { slug: 'name', type: 'string' },
    ]);
    await createCollection(t, 'people', [{ slug: 'name', type: 'string' }, { slug: 'age', type: 'integer' }], { labelSingular: 'Team Member' });
    await createCollection(t, 'misc_items', [{ slug: 'count', type: 'integer' }]);
  });
  afterAll(() => t.close());

  const slugOf = async (collection: string, data: Record<string, unknown>) => (await createEntry(t, collection, { data })).slug;

  it('generates the slug from the title, then -2, -3… while taken', async () => {
    expect(await slugOf('posts', { title: 'Hello, World!' })).toBe('hello-world');
    expect(await slugOf('posts', { title: 'hello world' })).toBe('hello-world-2');
    expect(await slugOf('posts', { title: '  HELLO -- world  ' })).toBe('hello-world-3');
  });

  it('falls back to the name, then the singular label, then the collection slug', async () => {
    expect(await slugOf('posts', { name: 'Just A Name' })).toBe('just-a-name');
    expect(await slugOf('posts', { title: 'Title Wins', name: 'Name Loses' })).toBe('title-wins');
    expect(await slugOf('posts', { title: '!!!', name: 'Punctuation Title' })).toBe('punctuation-title');
    expect(await slugOf('people', { age: 3 })).toBe('team-member');
    expect(await slugOf('people', { age: 4 })).toBe('team-member-2');
    expect(await slugOf('misc_items', { count: 1 })).toBe('misc-items');
    expect(await slugOf('misc_items', {})).toBe('misc-items-2');
  });

  it('keeps the letters of every script and drops accents from Latin ones', async () => {
    expect(await slugOf('posts', { title: 'Crème Brûlée à la carte' })).toBe('creme-brulee-a-la-carte');
    expect(await slugOf('posts', { title: 'Καλημέρα Κόσμε' })).toBe('καλημερα-κοσμε');
    expect(await slugOf('posts', { title: '日本語 タイトル' })).toBe('日本語-タイトル');
    expect(await slugOf('posts', { title: 'Straße 42' })).toBe('straße-42');
  });

  it('keeps generated slugs within 80 characters, on whole words, suffix included', async () => {
    const title = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
    const first = await slugOf('posts', { title });
    expect(first.length).toBeLessThanOrEqual(80);
    expect(title.toLowerCase().replaceAll(' ', '-').startsWith(first)).toBe(true);
    expect(first.endsWith('-')).toBe(false);
    expect(title.toLowerCase().replaceAll(' ', '-').at(first.length)).toBe('-');
    const second = await slugOf('posts', { title });
    expect(second.length).toBeLessThanOrEqual(80);
    expect(second).toMatch(/[^-]-2$/);
    const long = 'x'.repeat(120);
    expect(await slugOf('posts', { title: long })).toBe('x'.repeat(80));
    expect(await slugOf('posts', { title: long })).toBe(`${'x'.repeat(78)}-2`);
  });

  it('never generates the reserved slug trash', async () => {
    const item = await createEntry(t, 'posts', { data: { title: 'Trash' } });
    expect(item.slug).toBe('trash-2');
    expect((await getEntry(t, 'posts', 'trash-2')).id).toBe(item.id);
  });

  it('takes an explicit URL-safe slug', async () => {
    for (const slug of ['my-page', 'page_2', 'café', 'ünïcode-ok', '2026']) {
      const item = await createEntry(t, 'posts', { data: { title: 'Explicit' }, slug });
      expect(item.slug).toBe(slug);
      expect((await getEntry(t, 'posts', encodeURIComponent(slug))).id).toBe(item.id);
    }
  });

  it('refuses an explicit slug that is not URL-safe (400 path slug), reserved (RESERVED_SLUG) or taken (409)', async () => {
    const before = await listIds(t, 'posts');
    for (const slug of ['My Page', 'UPPER', 'a--b', '-lead', 'trail-', 'a/b', 'a.b', 'sp ace', '']) {
      const response = await t.request('POST', contentPath('posts'), { token: t.adminToken, body: { data: { title: 'Bad slug' }, slug } });
      expect({ slug, paths: issuePaths(response) }).toEqual({ slug, paths: ['slug'] });
    }
    expectError(await t.request('POST', contentPath('posts'), { token: t.adminToken, body: { data: {}, slug: 'trash' } }), 400, 'RESERVED_SLUG');
    await createEntry(t, 'posts', { data: {}, slug: 'taken' });
    expectError(await t.request('POST', contentPath('posts'), { token: t.adminToken, body: { data: {}, slug: 'taken' } }), 409, 'DUPLICATE_SLUG');
    expect((await listIds(t, 'posts')).length).toBe(before.length + 1);
  });

  it('allows the same slug in two collections', async () => {
    expect((await createEntry(t, 'people', { data: {}, slug: 'shared-slug' })).slug).toBe('shared-slug');
    expect((await createEntry(t, 'posts', { data: {}, slug: 'shared-slug' })).slug).toBe('shared-slug');
  });

  it('changes the slug with PUT: the new one finds the entry, the old one is free', async () => {
    const item = await createEntry(t, 'posts', { data: { title: 'Renamed' } });
    const updated: Entry = ok(await put(t, 'posts', item.id, { slug: 'renamed-for-good' })).item;
    expect(updated.slug).toBe('renamed-for-good');
    expect((await getEntry(t, 'posts', 'renamed-for-good')).id).toBe(item.id);
    expectError(await t.request('GET', contentPath('posts', '/renamed'), { token: t.adminToken }), 404, 'NOT_FOUND');
    expect(ok(await put(t, 'posts', 'renamed-for-good', { slug: 'renamed-for-good' })).item.slug).toBe('renamed-for-good');
    expect((await createEntry(t, 'posts', { data: {}, slug: 'renamed' })).slug).toBe('renamed');
  });

  it('refuses a PUT slug that is taken, reserved or not URL-safe, keeping the old one', async () => {
    const item = await createEntry(t, 'posts', { data: { title: 'Stays' } });
    await createEntry(t, 'posts', { data: {}, slug: 'occupied' });
    expectError(await put(t, 'posts', item.id, { slug: 'occupied' }), 409, 'DUPLICATE_SLUG');
    expectError(await put(t, 'posts', item.id, { slug: 'trash' }), 400, 'RESERVED_SLUG');
    expect(issuePaths(await put(t, 'posts', item.id, { slug: 'Not Safe' }))).toEqual(['slug']);
    expect(await getEntry(t, 'posts', 'stays')).toEqual(item);
  });
});

/** A collection with one optional field of every type. */
const everyType = [
  { slug: 'str', type: 'string', validation: { minLength: 2, maxLength: 10, pattern: '^[a-z]+$' } },
  { slug: 'txt', type: 'text', validation: { maxLength: 20 } },
  { slug: 'num', type: 'number', validation: { min: 0, max: 10 } },
  { slug: 'int', type: 'integer', validation: { min: -5, max: 5 } },
  { slug: 'bool', type: 'boolean' },
  { slug: 'when', type: 'datetime' },
  { slug: 'sel', type: 'select', validation: { options: ['red', 'green'] } },
  { slug: 'multi', type: 'multiSelect', validation: { options: ['a', 'b', 'c'], max: 2 } },
  { slug: 'rich', type: 'portableText' },
  { slug: 'pic', type: 'image' },
  { slug: 'doc', type: 'file' },
  { slug: 'ref', type: 'reference', options: { collection: 'targets' } },
  { slug: 'blob', type: 'json' },
  { slug: 'handle', type: 'slug' },
];

describe('field values of every type', () => {
  let t: TestApp;
  let target: Entry;
  let image: { id: string; url: string };
  /** How reads show a value naming `image` (test/content-media.test.ts has the rest). */
  const filledImage = () => ({ id: image.id, url: image.url, width: 4, height: 3, mimeType: 'image/png' });
  const post = (data: Record<string, unknown>) => t.request('POST', contentPath('kitchen'), { token: t.adminToken, body: { data } });
  beforeAll(async () => {
    t = await createTestApp();
    image = await uploadMedia(t, await tinyPng());
    await createCollection(t, 'targets', [{ slug: 'title', type: 'string' }]);
    await createCollection(t, 'kitchen', [...everyType, { slug: 'big', type: 'integer' }, { slug: 'real', type: 'number' }]);
    await createCollection(t, 'strict', [
      { slug: 'title', type: 'string', required: true },
      { slug: 'tags', type: 'multiSelect', required: true, validation: { options: ['x', 'y'] } },
      { slug: 'body', type: 'portableText', required: true },
      { slug: 'count', type: 'integer', required: true, defaultValue: 7 },
      { slug: 'note', type: 'text' },
    ]);
    target = await createEntry(t, 'targets', { data: { title: 'Target' } });
  });
  afterAll(() => t.close());

  it('stores a valid value of each type and returns it normalized, with its JSON type', async () => {
    const data = {
      str: 'abc',
      txt: 'Two\nlines',
      num: 2.5,
      int: -5,
      bool: false,
      when: '2026-03-01T10:00:00+02:00',
      sel: 'green',
      multi: ['c', 'a'],
      rich: 'Hello **there**',
      pic: image.id,
      doc: 'https://example.com/files/report.pdf',
      ref: target.id,
      blob: { nested: [1, 'two', { three: true }, null], empty: {} },
      handle: 'my-handle-2',
    };
    const item: Entry = expectCreated(await post(data)).item;
    expect(item.data).toEqual({
      ...data,
      big: null,
      real: null,
      when: '2026-03-01T08:00:00.000Z',
      rich: [
        {
          _type: 'block',
          _key: expect.any(String),
          style: 'normal',
          markDefs: [],
          children: [
            { _type: 'span', _key: expect.any(String), text: 'Hello ', marks: [] },
            { _type: 'span', _key: expect.any(String), text: 'there', marks: ['strong'] },
          ],
        },
      ],
      pic: filledImage(),
      doc: { url: 'https://example.com/files/report.pdf' },
    });
    expect((await getEntry(t, 'kitchen', item.id)).data).toEqual(item.data);
  });

  it('accepts the other forms of each type', async () => {
    const cases: [field: string, value: unknown, stored: unknown][] = [
      ['str', 'ab', 'ab'],
      ['str', 'abcdefghij', 'abcdefghij'],
      ['txt', '', ''],
      ['txt', '😀'.repeat(20), '😀'.repeat(20)],
      ['num', 0, 0],
      ['num', 10, 10],
      ['int', 5, 5],
      ['int', 0, 0],
      ['bool', true, true],
      ['when', '2026-01-31', '2026-01-31T00:00:00.000Z'],
      ['when', '2026-01-31T09:30:00.123456Z', '2026-01-31T09:30:00.123Z'],
      ['when', '2026-01-31T23:30-05:00', '2026-02-01T04:30:00.000Z'],
      ['multi', [], []],
      ['multi', ['b'], ['b']],
      ['pic', { id: image.id, alt: 'A picture' }, { ...filledImage(), alt: 'A picture' }],
      ['pic', '/uploads/a.png', { url: '/uploads/a.png' }],
      ['doc', { url: 'http://example.com/a.zip' }, { url: 'http://example.com/a.zip' }],
      ['blob', [], []],
      ['blob', 'just a string', 'just a string'],
      ['blob', 0, 0],
      ['blob', false, false],
      ['handle', 'x', 'x'],
    ];
    for (const [field, value, stored] of cases) {
      const item: Entry = expectCreated(await post({ [field]: value })).item;
      expect({ field, value, stored: item.data[field] }).toEqual({ field, value, stored });
      expect((await getEntry(t, 'kitchen', item.id)).data[field]).toEqual(stored);
    }
  });

  it('keeps the full range of integers and numbers exact', async () => {
    for (const [field, value] of [['big', Number.MAX_SAFE_INTEGER], ['big', -Number.MAX_SAFE_INTEGER], ['real', 1e300], ['real', -1.5e-7], ['real', 0.1]] as const) {
      const item: Entry = expectCreated(await post({ [field]: value })).item;
      expect((await getEntry(t, 'kitchen', item.id)).data[field]).toBe(value);
    }
  });

  it('refuses text holding a NUL character, storing nothing', async () => {
    const before = await listIds(t, 'kitchen');
    expectError(await post({ txt: 'a\u0000b' }), 400, 'VALIDATION_ERROR');
    expectError(await post({ blob: { 'key\u0000': 1 } }), 400, 'VALIDATION_ERROR');
    expect(await listIds(t, 'kitchen')).toEqual(before);
  });

  it('refuses text that is not well-formed Unicode, in values and keys, storing nothing', async () => {
    const before = await listIds(t, 'kitchen');
    const postRaw = (json: string) => t.request('POST', contentPath('kitchen'), { token: t.adminToken, rawBody: json, headers: { 'content-type': 'application/json' } });
    for (const text of ['x\\ud800y', '\\udc00', 'a\\udc00\\ud800b', '\\ud83d']) {
      const error = expectError(await postRaw(`{"data":{"txt":"${text}"}}`), 400, 'VALIDATION_ERROR');
      expect({ text, issues: error.details.issues }).toEqual({ text, issues: [{ path: 'data.txt', message: 'Must be well-formed Unicode (a lone surrogate such as \\ud800 is not)' }] });
    }
    expect(issuePaths(await postRaw('{"data":{"blob":{"k\\ud800":1}}}'))).toEqual(['data.blob.k\ud800']);
    expect(issuePaths(await postRaw('{"data":{"txt":"ok","x\\udfff":1}}'))).toEqual(['data.x\udfff']);
    expect(await listIds(t, 'kitchen')).toEqual(before);
    const paired: Entry = expectCreated(await postRaw('{"data":{"txt":"\\ud83d\\ude00"}}')).item;
    expect((await getEntry(t, 'kitchen', paired.id)).data.txt).toBe('😀');
  });

  it('returns values shaped like the places where stored JSON is spliced in exactly as given', async () => {
    // The response writer marks where a JSON column's text goes with a string starting with the escape
    // \uFFFF (core/raw-json.ts); the same text in a value, a key or a column's own JSON stays as it is.
    const lookalikes = ['\\uFFFF0', '"\\uFFFF0"', '\uFFFF0', '\\ud8000', '\ufffd1'];
    const data = { txt: lookalikes[0], blob: { [lookalikes[1]!]: lookalikes, nested: { text: lookalikes[2] } }, rich: lookalikes[3] };
    const item: Entry = expectCreated(await post(data)).item;
    const read = await getEntry(t, 'kitchen', item.id);
    expect(read.data.txt).toBe(lookalikes[0]);
    expect(read.data.blob).toEqual(data.blob);
    expect(read.data.rich[0].children[0].text).toBe(lookalikes[3]);
    expect(read.data).toEqual(item.data);
  });

  const invalid: [field: string, value: unknown][] = [
    ['str', 42],
    ['str', 'a'],
    ['str', 'abcdefghijk'],
    ['str', 'ABC'],
    ['str', ['abc']],
    ['txt', 'x'.repeat(21)],
    ['txt', { text: 'x' }],
    ['num', '5'],
    ['num', -0.1],
    ['num', 10.5],
    ['num', true],
    ['int', 1.5],
    ['int', 6],
    ['int', -6],
    ['int', '3'],
    ['int', 2 ** 53],
    ['bool', 'true'],
    ['bool', 1],
    ['when', 'tomorrow'],
    ['when', '2026-02-30'],
    ['when', '2026-01-31T09:30:00'],
    ['when', 1767225600000],
    ['sel', 'blue'],
    ['sel', 'Red'],
    ['sel', ['red']],
    ['multi', 'a'],
    ['multi', ['a', 'd']],
    ['multi', ['a', 'a']],
    ['multi', ['a', 'b', 'c']],
    ['multi', [1]],
    ['rich', 42],
    ['rich', { _type: 'block' }],
    ['rich', [{ _type: 'block', children: 'not an array' }]],
    ['rich', [{ children: [] }]],
    ['pic', 'not a url or id'],
    ['pic', 'javascript:alert(1)'],
    ['pic', { alt: 'only alt' }],
    ['pic', { id: 'short', url: '/x.png' }],
    ['pic', { url: '/x.png', extra: 1 }],
    ['doc', 42],
    ['doc', '//evil.example/x'],
    ['ref', 'lowercase-not-an-id'],
    ['ref', 42],
    ['ref', { id: unknownId }],
    ['handle', 'Not A Slug'],
    ['handle', 'double--hyphen'],
    ['handle', 42],
  ];

  it('refuses an invalid value of each type with one issue at data.<field>', async () => {
    const before = await listIds(t, 'kitchen');
    for (const [field, value] of invalid) {
      const response = await post({ [field]: value });
      expect({ field, value, paths: issuePaths(response) }).toEqual({ field, value, paths: [`data.${field}`] });
    }
    expect(await listIds(t, 'kitchen')).toEqual(before);
  });

  it('reports every invalid field of one body in one 400, one issue per field', async () => {
    const bad: Record<string, unknown> = {};
    for (const [field, value] of invalid) bad[field] ??= value;
    expect(Object.keys(bad).length).toBe(everyType.length - 1);
    bad.blob = { fine: true };
    bad.extra = 'unknown';
    bad.another = null;
    const response = await post(bad);
    const expected = [...everyType.filter((field) => field.slug !== 'blob').map((field) => `data.${field.slug}`), 'data.extra', 'data.another'];
    expect(issuePaths(response).sort()).toEqual(expected.sort());
    const unknown = expectError(response, 400, 'VALIDATION_ERROR').details.issues.filter((issue: { path: string }) => issue.path === 'data.extra');
    expect(unknown).toEqual([{ path: 'data.extra', message: 'Unknown field' }]);
  });

  it('refuses unknown fields on create and on update', async () => {
    expect(issuePaths(await post({ str: 'abc', nope: 1 }))).toEqual(['data.nope']);
    const item = await createEntry(t, 'kitchen', { data: { str: 'abc' } });
    expect(issuePaths(await put(t, 'kitchen', item.id, { data: { nope: 1, id: 'x' } })).sort()).toEqual(['data.id', 'data.nope']);
    expect(await getEntry(t, 'kitchen', item.id)).toEqual(item);
  });

  it('reports each missing required field as Required, filling defaults', async () => {
    const response = await t.request('POST', contentPath('strict'), { token: t.adminToken, body: { data: {} } });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    expect(error.details.issues.sort((a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path))).toEqual([
      { path: 'data.body', message: 'Required' },
      { path: 'data.tags', message: 'Required' },
      { path: 'data.title', message: 'Required' },
    ]);
    const item = await createEntry(t, 'strict', { data: { title: 'T', tags: ['x'], body: 'Text' } });
    expect(item.data.count).toBe(7);
    expect(item.data.note).toBeNull();
  });

  it('counts null, empty text and an empty list as missing for required fields', async () => {
    const create = (data: Record<string, unknown>) => t.request('POST', contentPath('strict'), { token: t.adminToken, body: { data: { title: 'T', tags: ['x'], body: 'Text', ...data } } });
    expect(issuePaths(await create({ title: '' }))).toEqual(['data.title']);
    expect(issuePaths(await create({ title: null }))).toEqual(['data.title']);
    expect(issuePaths(await create({ tags: [] }))).toEqual(['data.tags']);
    expect(issuePaths(await create({ body: [] }))).toEqual(['data.body']);
    expect(issuePaths(await create({ body: '' }))).toEqual(['data.body']);
    expect(issuePaths(await create({ count: null }))).toEqual(['data.count']);
  });

  it('checks only the given fields on update; null clears an optional field but not a required one', async () => {
    const item = await createEntry(t, 'strict', { data: { title: 'T', tags: ['x'], body: 'Text', note: 'A note' } });
    const updated: Entry = ok(await put(t, 'strict', item.id, { data: { note: null } })).item;
    expect(updated.data).toEqual({ ...item.data, note: null });
    for (const data of [{ title: null }, { title: '' }, { tags: [] }, { count: null }, { count: 'seven' }]) {
      const field = Object.keys(data)[0]!;
      expect({ data, paths: issuePaths(await put(t, 'strict', item.id, { data })) }).toEqual({ data, paths: [`data.${field}`] });
    }
    expect(await getEntry(t, 'strict', item.id)).toEqual(updated);
  });

  it('refuses an invalid value on update and keeps the stored one', async () => {
    const item = await createEntry(t, 'kitchen', { data: { int: 1, sel: 'red' } });
    expect(issuePaths(await put(t, 'kitchen', item.id, { data: { int: 9, sel: 'blue', str: 'ok' } })).sort()).toEqual(['data.int', 'data.sel']);
    expect(await getEntry(t, 'kitchen', item.id)).toEqual(item);
  });

  it('requires a reference to name an existing, untrashed entry of the target collection', async () => {
    const item = await createEntry(t, 'kitchen', { data: { ref: target.id } });
    expect(item.data.ref).toBe(target.id);
    expect(issuePaths(await post({ ref: unknownId }))).toEqual(['data.ref']);
    // An entry of another collection is not a target, even though it exists.
    expect(issuePaths(await post({ ref: item.id }))).toEqual(['data.ref']);
    const doomed = await createEntry(t, 'targets', { data: { title: 'Doomed' } });
    ok(await t.request('DELETE', contentPath('targets', `/${doomed.id}`), { token: t.adminToken }));
    expect(issuePaths(await post({ ref: doomed.id }))).toEqual(['data.ref']);
    expect(issuePaths(await put(t, 'kitchen', item.id, { data: { ref: unknownId } }))).toEqual(['data.ref']);
    expect(ok(await put(t, 'kitchen', item.id, { data: { ref: null } })).item.data.ref).toBeNull();
  });

  it('converts Markdown into Portable Text blocks and keeps given blocks', async () => {
    const markdown = '# Heading\n\nSome **bold** and [a link](https://example.com).\n\n- one\n- two';
    const item = await createEntry(t, 'kitchen', { data: { rich: markdown } });
    const blocks = item.data.rich;
    expect(blocks.map((block: { style?: string; listItem?: string }) => [block.style, block.listItem])).toEqual([
      ['h1', undefined],
      ['normal', undefined],
      ['normal', 'bullet'],
      ['normal', 'bullet'],
    ]);
    expect(blocks[0].children.map((span: { text: string }) => span.text)).toEqual(['Heading']);
    const paragraph = blocks[1];
    expect(paragraph.children.map((span: { text: string; marks: string[] }) => [span.text, span.marks])).toEqual([
      ['Some ', []],
      ['bold', ['strong']],
      [' and ', []],
      ['a link', [paragraph.markDefs[0]._key]],
      ['.', []],
    ]);
    expect(paragraph.markDefs).toEqual([{ _type: 'link', _key: expect.any(String), href: 'https://example.com' }]);
    for (const block of blocks) expect(block._key).toMatch(/^[0-9a-f]{12}$/);
    // Re-saving the blocks as they came back changes nothing.
    expect(ok(await put(t, 'kitchen', item.id, { data: { rich: blocks } })).item.data.rich).toEqual(blocks);
    const same = await createEntry(t, 'kitchen', { data: { rich: markdown } });
    expect(same.data.rich).toEqual(blocks);
  });
});

describe('unique fields', () => {
  let t: TestApp;
  const post = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    t.request('POST', contentPath('codes'), { token: t.adminToken, body: { data, ...extra } });
  beforeAll(async () => {
    t = await createTestApp();
    ok(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { locales: ['en', 'fr'] } }));
    await createCollection(t, 'codes', [
      { slug: 'code', type: 'string', unique: true },
      { slug: 'number', type: 'integer', unique: true },
      { slug: 'title', type: 'string' },
    ]);
  });
  afterAll(() => t.close());

  it('refuses a value another entry holds, with 400 at data.<field>, leaving nothing behind', async () => {
    const first = await createEntry(t, 'codes', { data: { code: 'ABC', number: 1, title: 'Only' } });
    const revisions = await allRevisionsCount(t);
    expect(issuePaths(await post({ code: 'ABC', title: 'Only' }, { slug: 'second' }))).toEqual(['data.code']);
    expect(issuePaths(await post({ code: 'ABC', number: 1, title: 'Only' })).sort()).toEqual(['data.code', 'data.number']);
    expect(await listIds(t, 'codes')).toEqual([first.id]);
    expect(await allRevisionsCount(t)).toBe(revisions);
    expect((await createEntry(t, 'codes', { data: { code: 'abc', title: 'Only' }, slug: 'second' })).slug).toBe('second');
    expect((await createEntry(t, 'codes', { data: { title: 'Only' } })).slug).toBe('only-2');
  });

  it('lets any number of entries leave a unique field empty', async () => {
    for (let index = 0; index < 3; index++) expect((await createEntry(t, 'codes', { data: { title: 'Empty' } })).data.code).toBeNull();
  });

  it('refuses an update to a taken value but allows saving the own value again', async () => {
    const one = await createEntry(t, 'codes', { data: { code: 'ONE', number: 11 } });
    const two = await createEntry(t, 'codes', { data: { code: 'TWO', number: 12 } });
    expect(issuePaths(await put(t, 'codes', two.id, { data: { code: 'ONE' } }))).toEqual(['data.code']);
    expect(issuePaths(await put(t, 'codes', two.id, { data: { number: 11 } }))).toEqual(['data.number']);
    expect(await getEntry(t, 'codes', two.id)).toEqual(two);
    expect(ok(await put(t, 'codes', one.id, { data: { code: 'ONE', number: 11 } })).item.data).toMatchObject({ code: 'ONE', number: 11 });
    // A value freed by one entry can be taken by another.
    ok(await put(t, 'codes', one.id, { data: { code: 'UNO' } }));
    expect(ok(await put(t, 'codes', two.id, { data: { code: 'ONE' } })).item.data.code).toBe('ONE');
  });

  it('is unique per locale', async () => {
    await createEntry(t, 'codes', { data: { code: 'LOCAL' } });
    expect((await createEntry(t, 'codes', { data: { code: 'LOCAL' }, locale: 'fr' })).data.code).toBe('LOCAL');
    expect(issuePaths(await post({ code: 'LOCAL' }, { locale: 'fr' }))).toEqual(['data.code']);
  });
});

describe('drafts of published entries', () => {
  let t: TestApp;
  let reader: string;
  beforeAll(async () => {
    t = await createTestApp();
    reader = (await t.userWithToken(10, ['content:read'])).token;
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }, { slug: 'body', type: 'text' }]);
    await createCollection(t, 'notices', [{ slug: 'title', type: 'string' }], { supports: ['revisions'] });
  });
  afterAll(() => t.close());

  it('stages a draft over a live entry: editors see data and liveData, readers the live values', async () => {
    const live = await createEntry(t, 'pages', { data: { title: 'Live', body: 'Live body' }, status: 'published' });
    t.clock.advance(1000);
    const staged: Entry = ok(await put(t, 'pages', live.id, { data: { title: 'Draft' } })).item;
    expect(staged.status).toBe('published');
    expect(staged.publishedAt).toBe(live.publishedAt);
    expect(staged.data).toEqual({ title: 'Draft', body: 'Live body' });
    expect(staged.liveData).toEqual({ title: 'Live', body: 'Live body' });
    expect(await getEntry(t, 'pages', live.id)).toEqual(staged);

    const seen = await getEntry(t, 'pages', live.id, reader);
    expect(seen.data).toEqual({ title: 'Live', body: 'Live body' });
    expect(seen.status).toBe('published');
    expect('liveData' in seen).toBe(false);
    expect('scheduledAt' in seen).toBe(false);
    expect((await getEntry(t, 'pages', live.slug, reader)).data.title).toBe('Live');
    const listed = ok(await t.request('GET', contentPath('pages'), { token: reader })).items.find((item: Entry) => item.id === live.id);
    expect(listed.data).toEqual({ title: 'Live', body: 'Live body' });
    expect('liveData' in listed).toBe(false);

    // A second save changes the draft; the live values stay the first ones.
    const again: Entry = ok(await put(t, 'pages', live.id, { data: { body: 'Draft body' } })).item;
    expect(again.data).toEqual({ title: 'Draft', body: 'Draft body' });
    expect(again.liveData).toEqual({ title: 'Live', body: 'Live body' });
    expect((await getEntry(t, 'pages', live.id, reader)).data).toEqual({ title: 'Live', body: 'Live body' });
  });

  it('publishes the draft with status published: liveData goes, readers see the new values', async () => {
    const live = await createEntry(t, 'pages', { data: { title: 'Before' }, status: 'published' });
    ok(await put(t, 'pages', live.id, { data: { title: 'Staged' } }));
    t.clock.advance(1000);
    const published: Entry = ok(await put(t, 'pages', live.id, { data: { body: 'Added' }, status: 'published' })).item;
    expect(published.status).toBe('published');
    expect(published.data).toEqual({ title: 'Staged', body: 'Added' });
    expect('liveData' in published).toBe(false);
    expect(published.publishedAt).toMatch(isoTime);
    expect((await getEntry(t, 'pages', live.id, reader)).data).toEqual({ title: 'Staged', body: 'Added' });
    // Saving with status published straight away stages nothing.
    const direct: Entry = ok(await put(t, 'pages', live.id, { data: { title: 'Direct' }, status: 'published' })).item;
    expect('liveData' in direct).toBe(false);
    expect((await getEntry(t, 'pages', live.id, reader)).data.title).toBe('Direct');
  });

  it('unpublishes with status draft: readers get 404 and no longer list it', async () => {
    const live = await createEntry(t, 'pages', { data: { title: 'Going away' }, status: 'published' });
    expect(await listIds(t, 'pages', '', reader)).toContain(live.id);
    const drafted: Entry = ok(await put(t, 'pages', live.id, { data: { title: 'Gone' }, status: 'draft' })).item;
    expect(drafted.status).toBe('draft');
    expect(drafted.data.title).toBe('Gone');
    expect('liveData' in drafted).toBe(false);
    expect('publishedAt' in drafted).toBe(false);
    expectError(await t.request('GET', contentPath('pages', `/${live.id}`), { token: reader }), 404, 'NOT_FOUND');
    expect(await listIds(t, 'pages', '', reader)).not.toContain(live.id);
  });

  it('hides entries never published from readers, as if they did not exist', async () => {
    const draft = await createEntry(t, 'pages', { data: { title: 'Secret draft' } });
    const byId = await t.request('GET', contentPath('pages', `/${draft.id}`), { token: reader });
    const unknown = await t.request('GET', contentPath('pages', `/${unknownId}`), { token: reader });
    expectError(byId, 404, 'NOT_FOUND');
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(await t.request('GET', contentPath('pages', '/secret-draft'), { token: reader }), 404, 'NOT_FOUND');
    expect(await listIds(t, 'pages', '', reader)).not.toContain(draft.id);
    expect(await listIds(t, 'pages', '&status=published', reader)).not.toContain(draft.id);
    for (const status of ['draft', 'scheduled']) {
      const error = expectError(await t.request('GET', contentPath('pages', `?status=${status}`), { token: reader }), 403, 'FORBIDDEN');
      expect(error.details.requiredRole).toBe(20);
    }
  });

  it('filters an editor list by status', async () => {
    const draft = await createEntry(t, 'pages', { data: { title: 'Filter draft' } });
    const live = await createEntry(t, 'pages', { data: { title: 'Filter live' }, status: 'published' });
    const drafts = ok(await t.request('GET', contentPath('pages', '?status=draft&limit=100'), { token: t.adminToken })).items as Entry[];
    const published = ok(await t.request('GET', contentPath('pages', '?status=published&limit=100'), { token: t.adminToken })).items as Entry[];
    expect(drafts.map((item) => item.id)).toContain(draft.id);
    expect(drafts.every((item) => item.status === 'draft')).toBe(true);
    expect(published.map((item) => item.id)).toContain(live.id);
    expect(published.every((item) => item.status === 'published')).toBe(true);
    const all = await listIds(t, 'pages');
    expect(all.length).toBe(drafts.length + published.length);
  });

  it('saves straight to the live version in a collection without drafts', async () => {
    const live = await createEntry(t, 'notices', { data: { title: 'Old notice' }, status: 'published' });
    const saved: Entry = ok(await put(t, 'notices', live.id, { data: { title: 'New notice' } })).item;
    expect(saved.status).toBe('published');
    expect(saved.data.title).toBe('New notice');
    expect('liveData' in saved).toBe(false);
    expect((await getEntry(t, 'notices', live.id, reader)).data.title).toBe('New notice');
  });
});

describe('_rev guards against lost updates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'docs', [{ slug: 'title', type: 'string' }, { slug: 'count', type: 'integer' }]);
  });
  afterAll(() => t.close());

  it('accepts the current _rev and refuses it once stale with 409 CONFLICT, changing nothing', async () => {
    const item = await createEntry(t, 'docs', { data: { title: 'Versioned' } });
    const first: Entry = ok(await put(t, 'docs', item.id, { data: { title: 'Second' }, _rev: item._rev })).item;
    expect(first._rev).not.toBe(item._rev);
    const revisions = await revisionTotal(t, 'docs', item.id);
    expectError(await put(t, 'docs', item.id, { data: { title: 'Lost' }, _rev: item._rev }), 409, 'CONFLICT');
    expectError(await put(t, 'docs', item.id, { slug: 'lost-slug', _rev: item._rev }), 409, 'CONFLICT');
    expect(await getEntry(t, 'docs', item.id)).toEqual(first);
    expect(await revisionTotal(t, 'docs', item.id)).toBe(revisions);
    expect((await createEntry(t, 'docs', { data: {}, slug: 'lost-slug' })).slug).toBe('lost-slug');
    expect(ok(await put(t, 'docs', item.id, { data: { title: 'Third' }, _rev: first._rev })).item.data.title).toBe('Third');
  });

  it('refuses a malformed _rev or one of another entry with 409 CONFLICT', async () => {
    const item = await createEntry(t, 'docs', { data: { title: 'Guarded' } });
    const other = await createEntry(t, 'docs', { data: { title: 'Other' } });
    const forged = [
      'garbage',
      '!!!',
      Buffer.from(`${item.id}.x`).toString('base64url'),
      Buffer.from(`${item.id}.-1`).toString('base64url'),
      Buffer.from(`${item.id}`).toString('base64url'),
      other._rev,
    ];
    for (const rev of forged) {
      const response = await put(t, 'docs', item.id, { data: { title: 'Forged' }, _rev: rev });
      expect({ rev, status: response.status, code: response.body?.error?.code }).toEqual({ rev, status: 409, code: 'CONFLICT' });
    }
    expect(await getEntry(t, 'docs', item.id)).toEqual(item);
    expect(await revisionTotal(t, 'docs', item.id)).toBe(1);
  });

  it('writes unconditionally without _rev', async () => {
    const item = await createEntry(t, 'docs', { data: { title: 'Free' } });
    ok(await put(t, 'docs', item.id, { data: { count: 1 } }));
    expect(ok(await put(t, 'docs', item.id, { data: { count: 2 } })).item.data.count).toBe(2);
  });

  it('lets exactly one of two simultaneous writers holding the same _rev win', async () => {
    const item = await createEntry(t, 'docs', { data: { title: 'Contested', count: 0 } });
    let rev = item._rev;
    for (let round = 1; round <= 5; round++) {
      const before = await revisionTotal(t, 'docs', item.id);
      const responses = await Promise.all([
        put(t, 'docs', item.id, { data: { title: `A${round}`, count: round }, _rev: rev }),
        put(t, 'docs', item.id, { data: { title: `B${round}`, count: -round }, _rev: rev }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const winner = responses.find((response) => response.status === 200)!.body.data.item as Entry;
      expectError(responses.find((response) => response.status === 409)!, 409, 'CONFLICT');
      const stored = await getEntry(t, 'docs', item.id);
      expect(stored).toEqual(winner);
      expect([`A${round}`, `B${round}`]).toContain(stored.data.title);
      expect(stored.data.count).toBe(stored.data.title.startsWith('A') ? round : -round);
      expect(await revisionTotal(t, 'docs', item.id)).toBe(before + 1);
      rev = stored._rev;
    }
  });
});

describe('translations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    ok(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { locales: ['en', 'fr', 'de'] } }));
    await createCollection(t, 'guides', [
      { slug: 'title', type: 'string' },
      { slug: 'price', type: 'number', translatable: false },
      { slug: 'sku', type: 'string', translatable: false },
    ]);
    await createCollection(t, 'manuals', [
      { slug: 'title', type: 'string' },
      { slug: 'code', type: 'string', required: true, translatable: false },
    ]);
  });
  afterAll(() => t.close());

  it("gives an entry the site's default locale unless another of its locales is asked for", async () => {
    expect((await createEntry(t, 'guides', { data: { title: 'Default' } })).locale).toBe('en');
    expect((await createEntry(t, 'guides', { data: { title: 'Deutsch' }, locale: 'de' })).locale).toBe('de');
    for (const locale of ['es', 'pt-BR', 'xx_YY']) {
      const response = await t.request('POST', contentPath('guides'), { token: t.adminToken, body: { data: { title: 'No' }, slug: 'no-locale', locale } });
      expect({ locale, paths: issuePaths(response) }).toEqual({ locale, paths: ['locale'] });
    }
    expect((await createEntry(t, 'guides', { data: {}, slug: 'no-locale' })).slug).toBe('no-locale');
  });

  it('joins the translation group of translationOf and copies the shared fields', async () => {
    const source = await createEntry(t, 'guides', { data: { title: 'Hello', price: 9.5, sku: 'G-1' } });
    const french = await createEntry(t, 'guides', { data: { title: 'Bonjour' }, locale: 'fr', translationOf: source.id });
    expect(french.translationGroup).toBe(source.id);
    expect(french.locale).toBe('fr');
    expect(french.data).toEqual({ title: 'Bonjour', price: 9.5, sku: 'G-1' });
    // The group's shared values win over different ones given for the new translation.
    const german = await createEntry(t, 'guides', { data: { title: 'Hallo', price: 1 }, locale: 'de', translationOf: french.id });
    expect(german.translationGroup).toBe(source.id);
    expect(german.data).toEqual({ title: 'Hallo', price: 9.5, sku: 'G-1' });
  });

  it('writes a shared field to every member of the group and keeps translatable ones apart', async () => {
    const source = await createEntry(t, 'guides', { data: { title: 'Shared', price: 5, sku: 'S-1' } });
    const french = await createEntry(t, 'guides', { data: { title: 'Partagé' }, locale: 'fr', translationOf: source.id });
    ok(await put(t, 'guides', french.id, { data: { price: 7, title: 'Partagé 2' } }));
    expect((await getEntry(t, 'guides', source.id)).data).toEqual({ title: 'Shared', price: 7, sku: 'S-1' });
    expect((await getEntry(t, 'guides', french.id)).data).toEqual({ title: 'Partagé 2', price: 7, sku: 'S-1' });
    ok(await put(t, 'guides', source.id, { data: { sku: 'S-2' } }));
    expect((await getEntry(t, 'guides', french.id)).data.sku).toBe('S-2');
  });

  it('copies a required shared field into a translation that does not give it', async () => {
    const source = await createEntry(t, 'manuals', { data: { title: 'Source', code: 'M-1' } });
    const french = await createEntry(t, 'manuals', { data: { title: 'Source FR' }, locale: 'fr', translationOf: source.id });
    expect(french.data).toEqual({ title: 'Source FR', code: 'M-1' });
  });

  it('does not change what readers see of other members when a shared field is saved as a draft', async () => {
    const reader = (await t.userWithToken(10, ['content:read'])).token;
    const source = await createEntry(t, 'guides', { data: { title: 'Live', price: 5 }, status: 'published' });
    const french = await createEntry(t, 'guides', { data: { title: 'En ligne' }, locale: 'fr', translationOf: source.id, status: 'published' });
    const staged: Entry = ok(await put(t, 'guides', source.id, { data: { price: 7 } })).item;
    expect(staged.liveData).toEqual({ title: 'Live', price: 5, sku: null });
    expect((await getEntry(t, 'guides', source.id, reader)).data.price).toBe(5);
    expect((await getEntry(t, 'guides', french.id)).data.price).toBe(7);
    expect((await getEntry(t, 'guides', french.id, reader)).data.price).toBe(5);
  });

  it('refuses a second translation in a locale the group already has with 409 CONFLICT, leaving nothing behind', async () => {
    const source = await createEntry(t, 'guides', { data: { title: 'Once' } });
    const french = await createEntry(t, 'guides', { data: { title: 'Une fois' }, locale: 'fr', translationOf: source.id });
    const before = await listIds(t, 'guides');
    const revisions = await allRevisionsCount(t);
    const post = (body: Record<string, unknown>) => t.request('POST', contentPath('guides'), { token: t.adminToken, body });
    expectError(await post({ data: { title: 'Twice' }, slug: 'twice', locale: 'fr', translationOf: source.id }), 409, 'CONFLICT');
    expectError(await post({ data: { title: 'Twice' }, slug: 'twice', locale: 'en', translationOf: french.id }), 409, 'CONFLICT');
    expectError(await post({ data: { title: 'Twice' }, slug: 'twice', translationOf: source.id }), 409, 'CONFLICT');
    expect(await listIds(t, 'guides')).toEqual(before);
    expect(await allRevisionsCount(t)).toBe(revisions);
    expect((await createEntry(t, 'guides', { data: {}, slug: 'twice', locale: 'fr' })).slug).toBe('twice');
  });

  it('keeps slugs unique per locale and finds a slug in the locale asked for', async () => {
    const english = await createEntry(t, 'guides', { data: { title: 'Menu' } });
    const french = await createEntry(t, 'guides', { data: { title: 'Menu' }, locale: 'fr', translationOf: english.id });
    expect([english.slug, french.slug]).toEqual(['menu', 'menu']);
    expect((await getEntry(t, 'guides', 'menu?locale=fr')).id).toBe(french.id);
    expect((await getEntry(t, 'guides', 'menu?locale=en')).id).toBe(english.id);
    expectError(await t.request('GET', contentPath('guides', '/menu?locale=de'), { token: t.adminToken }), 404, 'NOT_FOUND');
    expect((await createEntry(t, 'guides', { data: { title: 'Menu' }, locale: 'fr' })).slug).toBe('menu-2');
    expect((await createEntry(t, 'guides', { data: {}, slug: 'menu', locale: 'de' })).slug).toBe('menu');
    expectError(await t.request('POST', contentPath('guides'), { token: t.adminToken, body: { data: {}, slug: 'menu', locale: 'fr' } }), 409, 'DUPLICATE_SLUG');
  });

  it('lists one locale with ?locale=', async () => {
    const french = ok(await t.request('GET', contentPath('guides', '?locale=fr&limit=100'), { token: t.adminToken })).items as Entry[];
    expect(french.length).toBeGreaterThan(2);
    expect(french.every((item) => item.locale === 'fr')).toBe(true);
    const all = ok(await t.request('GET', contentPath('guides', '?limit=100'), { token: t.adminToken })).items as Entry[];
    expect(french.map((item) => item.id)).toEqual(all.filter((item) => item.locale === 'fr').map((item) => item.id));
    expect(ok(await t.request('GET', contentPath('guides', '?locale=es'), { token: t.adminToken })).items).toEqual([]);
  });
});

describe('listing and pagination', () => {
  let t: TestApp;
  const count = 60;
  /** Entries as created, with the values each sort key has. */
  const entries: Entry[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'items', [
      { slug: 'title', type: 'string' },
      { slug: 'rank', type: 'integer' },
      { slug: 'score', type: 'number' },
      { slug: 'flag', type: 'boolean' },
      { slug: 'due', type: 'datetime' },
      { slug: 'kind', type: 'select', validation: { options: ['x', 'y', 'z'] } },
      { slug: 'handle', type: 'slug' },
      { slug: 'blob', type: 'json' },
      { slug: 'body', type: 'portableText' },
      { slug: 'pic', type: 'image' },
      { slug: 'tags', type: 'multiSelect', validation: { options: ['a'] } },
    ]);
    for (let index = 0; index < count; index++) {
      // Runs of equal timestamps and few distinct values, with NULLs among them.
      if (index % 7 === 0) t.clock.advance(1000);
      const data = {
        title: index % 4 === 0 ? null : `Title ${index % 5}`,
        rank: index % 5 === 0 ? null : index % 3,
        score: index % 7 === 0 ? null : (index % 4) * 0.5,
        flag: index % 6 === 0 ? null : index % 2 === 0,
        due: index % 3 === 0 ? null : `2026-0${(index % 2) + 1}-15T00:00:00.000Z`,
        kind: index % 8 === 0 ? null : ['x', 'y', 'z'][index % 3],
        handle: index % 9 === 0 ? null : `h${index % 4}`,
      };
      entries.push(await createEntry(t, 'items', { data, slug: `e${String(index).padStart(2, '0')}`, status: index % 3 === 0 ? 'published' : 'draft' }));
    }
    // Some saves later, so updatedAt differs from createdAt for a few (in equal runs again).
    t.clock.advance(1000);
    for (const index of [5, 17, 33, 41]) entries[index] = ok(await put(t, 'items', entries[index]!.id, { data: { blob: { index } } })).item;
  });
  afterAll(() => t.close());

  const sortValue = (entry: Entry, orderBy: string): string | number | boolean | null => {
    if (orderBy === 'slug') return entry.slug;
    if (['createdAt', 'updatedAt', 'publishedAt'].includes(orderBy)) return (entry as unknown as Record<string, string | undefined>)[orderBy] ?? null;
    return entry.data[orderBy] ?? null;
  };

  /** The contract's order: by the value (NULLs first ascending, last descending), then by id the same way. */
  const expectedOrder = (orderBy: string, order: 'asc' | 'desc', subset = entries): string[] => {
    const compare = (a: Entry, b: Entry): number => {
      const [left, right] = [sortValue(a, orderBy), sortValue(b, orderBy)];
      let result: number;
      if (left === right) result = 0;
      else if (left === null) result = order === 'asc' ? -1 : 1;
      else if (right === null) result = order === 'asc' ? 1 : -1;
      else result = (left < right ? -1 : 1) * (order === 'asc' ? 1 : -1);
      if (result !== 0) return result;
      return (a.id < b.id ? -1 : 1) * (order === 'asc' ? 1 : -1);
    };
    return [...subset].sort(compare).map((entry) => entry.id);
  };

  it('lists 50 entries by default, newest first, then the rest', async () => {
    const first = ok(await t.request('GET', contentPath('items'), { token: t.adminToken }));
    expect(first.items.length).toBe(50);
    expect(typeof first.nextCursor).toBe('string');
    const { pages, entries: listed } = await allPages(t, 'items', '');
    expect(pages.map((page) => page.length)).toEqual([50, 10]);
    expect(listed.map((entry) => entry.id)).toEqual(expectedOrder('createdAt', 'desc'));
    expect(listed).toEqual(expectedOrder('createdAt', 'desc').map((id) => entries.find((entry) => entry.id === id)));
  });

  const sortKeys = ['createdAt', 'updatedAt', 'publishedAt', 'slug', 'title', 'rank', 'score', 'flag', 'due', 'kind', 'handle'];
  for (const orderBy of sortKeys) {
    for (const order of ['asc', 'desc'] as const) {
      it(`pages through orderBy=${orderBy}&order=${order}, every entry exactly once in order`, async () => {
        const expected = expectedOrder(orderBy, order);
        for (const limit of [7, 50]) {
          const { pages, entries: listed } = await allPages(t, 'items', `orderBy=${orderBy}&order=${order}&limit=${limit}`);
          const ids = listed.map((entry) => entry.id);
          expect({ limit, ids }).toEqual({ limit, ids: expected });
          expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
          expect(pages.length).toBe(Math.ceil(count / limit));
        }
      });
    }
  }

  it('pages one entry at a time through a sort key that is mostly NULL, both ways', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const { pages, entries: listed } = await allPages(t, 'items', `orderBy=publishedAt&order=${order}&limit=1`);
      expect(pages.every((page) => page.length === 1)).toBe(true);
      expect(listed.map((entry) => entry.id)).toEqual(expectedOrder('publishedAt', order));
    }
  });

  it('pages through a status filter', async () => {
    const published = entries.filter((entry) => entry.status === 'published');
    for (const order of ['asc', 'desc'] as const) {
      const { entries: listed } = await allPages(t, 'items', `status=published&orderBy=rank&order=${order}&limit=3`);
      expect(listed.map((entry) => entry.id)).toEqual(expectedOrder('rank', order, published));
    }
  });

  it('ends without nextCursor when the last page is exactly full', async () => {
    for (const limit of [30, 60, 100]) {
      const { pages } = await allPages(t, 'items', `limit=${limit}`);
      expect(pages.map((page) => page.length)).toEqual(limit === 30 ? [30, 30] : [60]);
    }
  });

  it('neither repeats nor skips entries when one is created between pages', async () => {
    const first = ok(await t.request('GET', contentPath('items', '?limit=20'), { token: t.adminToken }));
    const added = await createEntry(t, 'items', { data: { title: 'Late' } });
    const rest = await allPages(t, 'items', 'limit=20', first.nextCursor);
    const ids = [...first.items, ...rest.entries].map((entry: Entry) => entry.id);
    expect(ids).toEqual(expectedOrder('createdAt', 'desc'));
    expect(ids).not.toContain(added.id);
    ok(await t.request('DELETE', contentPath('items', `/${added.id}`), { token: t.adminToken }));
  });

  it('refuses a limit outside 1-100 or not a whole number', async () => {
    for (const limit of ['0', '101', '-1', '1.5', 'ten', '']) {
      const response = await t.request('GET', contentPath('items', `?limit=${limit}`), { token: t.adminToken });
      expect({ limit, paths: issuePaths(response) }).toEqual({ limit, paths: ['limit'] });
    }
    expect(ok(await t.request('GET', contentPath('items', '?limit=1'), { token: t.adminToken })).items.length).toBe(1);
    expect(ok(await t.request('GET', contentPath('items', '?limit=100'), { token: t.adminToken })).items.length).toBe(count);
  });

  it('refuses a malformed cursor with 400 naming cursor', async () => {
    const encoded = (value: string) => Buffer.from(value).toString('base64url');
    const cursors = ['not a cursor!', 'AAAA', encoded('{"id":1}'), encoded('[]'), encoded('["a"]'), encoded('["a","b","c"]'), encoded('[null, 5]'), encoded('[true, "x"]'), encoded('not json')];
    for (const cursor of cursors) {
      const response = await t.request('GET', contentPath('items', `?cursor=${encodeURIComponent(cursor)}`), { token: t.adminToken });
      expect({ cursor, paths: issuePaths(response) }).toEqual({ cursor, paths: ['cursor'] });
    }
  });

  it('refuses a well-formed cursor whose value does not fit the sort column with 400 naming cursor', async () => {
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const cases: [orderBy: string, value: unknown][] = [
      ['rank', 'abc'],
      ['rank', 1.5],
      ['score', 'abc'],
      ['flag', 'yes'],
      ['rank', '99999999999999999999999'],
    ];
    const answers = [];
    for (const [orderBy, value] of cases) {
      const cursor = encoded([value, entries[0]!.id]);
      const response = await t.request('GET', contentPath('items', `?orderBy=${orderBy}&cursor=${cursor}`), { token: t.adminToken });
      answers.push({ orderBy, value, status: response.status, issues: response.body?.error?.details?.issues });
    }
    expect(answers).toEqual(cases.map(([orderBy, value]) => ({ orderBy, value, status: 400, issues: [{ path: 'cursor', message: expect.any(String) }] })));
  });

  it('refuses an orderBy that is unknown or not sortable, an unknown order or status', async () => {
    for (const orderBy of ['nope', 'id', 'deletedAt', 'blob', 'body', 'pic', 'tags', '_id', '_slug', 'created_at']) {
      const response = await t.request('GET', contentPath('items', `?orderBy=${orderBy}`), { token: t.adminToken });
      expect({ orderBy, paths: issuePaths(response) }).toEqual({ orderBy, paths: ['orderBy'] });
    }
    expect(issuePaths(await t.request('GET', contentPath('items', '?order=up'), { token: t.adminToken }))).toEqual(['order']);
    expect(issuePaths(await t.request('GET', contentPath('items', '?status=trashed'), { token: t.adminToken }))).toEqual(['status']);
  });

  it('sorts by scheduledAt, which is NULL for every entry here', async () => {
    const { entries: listed } = await allPages(t, 'items', 'orderBy=scheduledAt&order=asc&limit=9');
    expect(listed.map((entry) => entry.id)).toEqual([...entries].map((entry) => entry.id).sort());
  });
});

describe('simultaneous creates', () => {
  let t: TestApp;
  const post = (body: Record<string, unknown>) => t.request('POST', contentPath('races'), { token: t.adminToken, body });
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'races', [{ slug: 'title', type: 'string' }, { slug: 'code', type: 'string', unique: true }]);
  });
  afterAll(() => t.close());

  it('gives one of two creates with the same explicit slug a 409 DUPLICATE_SLUG', async () => {
    for (let round = 0; round < 5; round++) {
      const responses = await Promise.all([post({ data: {}, slug: `same-${round}` }), post({ data: {}, slug: `same-${round}` })]);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
      expectError(responses.find((response) => response.status === 409)!, 409, 'DUPLICATE_SLUG');
    }
  });

  it('gives two creates with the same title distinct generated slugs, both 201', async () => {
    for (let round = 0; round < 5; round++) {
      const responses = await Promise.all([post({ data: { title: `Race ${round}` } }), post({ data: { title: `Race ${round}` } })]);
      const slugs = responses.map((response) => expectCreated(response).item.slug).sort();
      expect(slugs).toEqual([`race-${round}`, `race-${round}-2`]);
    }
  });

  it('refuses the second of two creates with the same unique value at data.<field>', async () => {
    for (let round = 0; round < 5; round++) {
      const responses = await Promise.all([post({ data: { code: `C${round}` }, slug: `a-${round}` }), post({ data: { code: `C${round}` }, slug: `b-${round}` })]);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 400]);
      expect(issuePaths(responses.find((response) => response.status === 400)!)).toEqual(['data.code']);
    }
  });
});

describe('refused writes leave nothing behind', () => {
  let t: TestApp;
  let existing: Entry;
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'ledger', [
      { slug: 'title', type: 'string', required: true },
      { slug: 'code', type: 'string', unique: true },
      { slug: 'parent', type: 'reference', options: { collection: 'ledger' } },
    ]);
    existing = await createEntry(t, 'ledger', { data: { title: 'Existing', code: 'TAKEN' } });
  });
  afterAll(() => t.close());

  it('keeps no entry, no revision and no slug of a refused create', async () => {
    const revisions = await allRevisionsCount(t);
    const readOnly = (await t.userWithToken(20, ['content:read'])).token;
    const refused: [string, ApiResponse][] = [];
    const post = async (label: string, body: Record<string, unknown>, token = t.adminToken) => {
      refused.push([label, await t.request('POST', contentPath('ledger'), { token, body })]);
    };
    await post('missing required', { data: { code: 'NEW' }, slug: 'fresh' });
    await post('unique taken', { data: { title: 'Fresh', code: 'TAKEN' }, slug: 'fresh' });
    await post('unknown reference', { data: { title: 'Fresh', parent: unknownId }, slug: 'fresh' });
    await post('unknown field', { data: { title: 'Fresh', extra: 1 }, slug: 'fresh' });
    await post('bad locale', { data: { title: 'Fresh' }, slug: 'fresh', locale: 'fr' });
    await post('generated slug, unique taken', { data: { title: 'Fresh', code: 'TAKEN' } });
    await post('no scope', { data: { title: 'Fresh' }, slug: 'fresh' }, readOnly);
    await post('unknown translation source', { data: { title: 'Fresh' }, slug: 'fresh', translationOf: unknownId });
    for (const [label, response] of refused) expect({ label, refused: response.status >= 400 }).toEqual({ label, refused: true });
    expect(await listIds(t, 'ledger')).toEqual([existing.id]);
    expect(await allRevisionsCount(t)).toBe(revisions);
    expect((await createEntry(t, 'ledger', { data: { title: 'Fresh', code: 'NEW' } })).slug).toBe('fresh');
    expect((await createEntry(t, 'ledger', { data: { title: 'Other' }, slug: 'fresh-2' })).slug).toBe('fresh-2');
  });

  it('keeps the values, slug, _rev and revisions of an entry whose update is refused', async () => {
    const item = await createEntry(t, 'ledger', { data: { title: 'Steady', code: 'MINE' } });
    const revisions = await revisionTotal(t, 'ledger', item.id);
    const readOnly = (await t.userWithToken(20, ['content:read'])).token;
    const bodies: Record<string, unknown>[] = [
      { data: { title: null }, slug: 'moved' },
      { data: { code: 'TAKEN', title: 'Changed' }, slug: 'moved' },
      { data: { parent: unknownId }, slug: 'moved' },
      { data: { title: 'Changed', extra: true }, slug: 'moved' },
      { data: { title: 'Changed' }, slug: existing.slug },
      { data: { title: 'Changed' }, slug: 'moved', _rev: existing._rev },
    ];
    for (const body of bodies) expect((await put(t, 'ledger', item.id, body)).status).toBeGreaterThanOrEqual(400);
    expectError(await put(t, 'ledger', item.id, { data: { title: 'Changed' }, slug: 'moved' }, readOnly), 403, 'FORBIDDEN');
    expect(await getEntry(t, 'ledger', item.id)).toEqual(item);
    expect(await revisionTotal(t, 'ledger', item.id)).toBe(revisions);
    expect((await createEntry(t, 'ledger', { data: { title: 'Mover' }, slug: 'moved' })).slug).toBe('moved');
  });
});
