import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';

/** Cases found by probing: leaks through cursors, races, and changes that must keep stored data valid. */
describe('content edge cases', () => {
  let t: TestApp;
  let reader: string;
  const call = (method: string, path: string, body?: unknown, token = t.adminToken) => t.request(method, `${api}${path}`, { token, body });

  beforeAll(async () => {
    t = await createTestApp();
    ({ token: reader } = await t.userWithToken(10, ['content:read']));
    expectSuccess(await call('POST', '/settings', { locales: ['en', 'fr', 'de'] }));
  });
  afterAll(() => t.close());

  it('gives cursors that carry no value, so a reader never learns a staged draft or a schedule', async () => {
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }]);
    const entries = [];
    for (const title of ['alpha', 'beta', 'gamma']) entries.push(await createEntry(t, 'notes', { data: { title }, status: 'published' }));
    expectSuccess(await call('PUT', `/content/notes/${entries[0].id}`, { data: { title: 'SECRET DRAFT' } }));
    expectSuccess(await call('POST', `/content/notes/${entries[1].id}/schedule`, { scheduledAt: '2099-01-01T00:00:00Z' }));
    expectError(await call('GET', '/content/notes?orderBy=scheduledAt', undefined, reader), 403, 'FORBIDDEN');
    for (const orderBy of ['title', 'createdAt']) {
      const page = expectSuccess(await call('GET', `/content/notes?orderBy=${orderBy}&limit=1`, undefined, reader));
      const decoded = Buffer.from(page.nextCursor, 'base64url').toString('utf8');
      expect(decoded).not.toContain('SECRET');
      expect(decoded).not.toContain('2099');
      const next = expectSuccess(await call('GET', `/content/notes?orderBy=${orderBy}&limit=5&cursor=${page.nextCursor}`, undefined, reader));
      expect(next.items.length).toBe(2);
      for (const item of [...page.items, ...next.items]) expect(item.data.title).not.toBe('SECRET DRAFT');
    }
  });

  it('refuses limits written other than in plain digits', async () => {
    for (const limit of ['1e1', '0x10', '10abc', '']) expect(issuePaths(await call('GET', `/content/notes?limit=${limit}`))).toEqual(['limit']);
    expect(expectSuccess(await call('GET', '/content/notes?limit=2')).items).toHaveLength(2);
  });

  it('refuses a __proto__ key in entry data as an unknown key', async () => {
    const response = await t.request('POST', `${api}/content/notes`, { token: t.adminToken, rawBody: '{"data":{"title":"x","__proto__":{"a":1}}}', headers: { 'content-type': 'application/json' } });
    expect(issuePaths(response)).toEqual(['data.__proto__']);
  });

  it('refuses field slugs that are the engines own column names', async () => {
    for (const slug of ['xmin', 'ctid', 'tableoid', 'oid', 'rowid']) {
      expectError(await call('POST', '/schema/collections/notes/fields', { slug, label: slug, type: 'string' }), 400, 'RESERVED_SLUG');
    }
  });

  it('gives every one of many simultaneous creates with the same title its own generated slug', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => call('POST', '/content/notes', { data: { title: 'Same title' } })));
    const slugs = responses.map((response) => expectCreated(response).item.slug);
    expect(new Set(slugs).size).toBe(12);
    expect(slugs).toContain('same-title');
  });

  it('gives simultaneously created fields distinct positions', async () => {
    await createCollection(t, 'wide', []);
    const responses = await Promise.all(Array.from({ length: 8 }, (_, index) => call('POST', '/schema/collections/wide/fields', { slug: `f${index}`, label: 'F', type: 'string' })));
    const orders = responses.map((response) => expectCreated(response).item.sortOrder);
    expect(new Set(orders).size).toBe(8);
  });

  it('saves shared fields of one translation group from several writers at once without failing', async () => {
    await createCollection(t, 'products', [{ slug: 'name', type: 'string' }, { slug: 'price', type: 'integer', translatable: false }]);
    const en = await createEntry(t, 'products', { data: { name: 'Chair', price: 5 }, status: 'published' });
    const fr = await createEntry(t, 'products', { data: { name: 'Chaise' }, locale: 'fr', translationOf: en.id, status: 'published' });
    const de = await createEntry(t, 'products', { data: { name: 'Stuhl' }, locale: 'de', translationOf: en.id, status: 'published' });
    for (let round = 0; round < 3; round++) {
      const writes = [en, fr, de, en, fr, de].map((entry, index) => call('PUT', `/content/products/${entry.id}`, { data: { price: round * 10 + index } }));
      for (const response of await Promise.all(writes)) expect(response.status).toBe(200);
    }
    // A shared value saved as a draft stays a draft on every member: readers keep the live price.
    for (const entry of [en, fr, de]) expect(expectSuccess(await call('GET', `/content/products/${entry.id}`, undefined, reader)).item.data.price).toBe(5);
  });

  it('refuses a translationOf that names no entry with 400 naming translationOf', async () => {
    expect(issuePaths(await call('POST', '/content/products', { data: { name: 'X' }, locale: 'fr', translationOf: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }))).toEqual(['translationOf']);
  });

  it('makes saves live at once after drafts are switched off', async () => {
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }]);
    const page = await createEntry(t, 'pages', { data: { title: 'Live v1' }, status: 'published' });
    expectSuccess(await call('PUT', `/content/pages/${page.id}`, { data: { title: 'Draft v2' } }));
    expectSuccess(await call('PATCH', '/schema/collections/pages', { supports: ['revisions'] }));
    const saved = expectSuccess(await call('PUT', `/content/pages/${page.id}`, { data: { title: 'Now v3' } })).item;
    expect(saved.liveData).toBeUndefined();
    expect(expectSuccess(await call('GET', `/content/pages/${page.id}`, undefined, reader)).item.data.title).toBe('Now v3');
  });

  it('refuses a field change that stored values would break, and changes nothing', async () => {
    await createCollection(t, 'memos', [{ slug: 'body', type: 'text' }, { slug: 'note', type: 'string' }]);
    await createEntry(t, 'memos', { data: { body: 'long text', note: null } });
    expectError(await call('PATCH', '/schema/collections/memos/fields/body', { type: 'string', validation: { maxLength: 3 } }), 400, 'SCHEMA_ERROR');
    expectError(await call('PATCH', '/schema/collections/memos/fields/note', { required: true }), 400, 'SCHEMA_ERROR');
    const fields = expectSuccess(await call('GET', '/schema/collections/memos/fields')).items;
    expect(fields.map((field: { type: string; required: boolean }) => [field.type, field.required])).toEqual([['text', false], ['string', false]]);
    expectSuccess(await call('PATCH', '/schema/collections/memos/fields/body', { type: 'string', validation: { maxLength: 20 } }));
  });

  it('keeps a duplicate within the title rules, leaving out the copy marker when it would not fit', async () => {
    await createCollection(t, 'tags', [{ slug: 'title', type: 'string', validation: { maxLength: 5 } }]);
    const tag = await createEntry(t, 'tags', { data: { title: 'Hello' } });
    expect(expectCreated(await call('POST', `/content/tags/${tag.id}/duplicate`)).item.data.title).toBe('Hello');
    const short = await createEntry(t, 'tags', { data: { title: 'Hi' } });
    expect(expectCreated(await call('POST', `/content/tags/${short.id}/duplicate`)).item.data.title).toBe('Hi');
  });

  it('refuses to restore a revision whose values no longer fit the field, with 400 and no change', async () => {
    await createCollection(t, 'flags', [{ slug: 'title', type: 'string' }, { slug: 'flag', type: 'boolean' }]);
    const entry = await createEntry(t, 'flags', { data: { title: 'One', flag: true } });
    const [revision] = expectSuccess(await call('GET', `/content/flags/${entry.id}/revisions`)).items;
    expectSuccess(await call('DELETE', '/schema/collections/flags/fields/flag'));
    expectCreated(await call('POST', '/schema/collections/flags/fields', { slug: 'flag', label: 'Flag', type: 'integer' }));
    expect(issuePaths(await call('POST', `/revisions/${revision.id}/restore`))).toEqual(['data.flag']);
    const after = expectSuccess(await call('GET', `/content/flags/${entry.id}/revisions`));
    expect(after.total).toBe(1);
  });

  it('lets schema changes race duplicates and scheduled publishing without a server error', async () => {
    for (let round = 0; round < 3; round++) {
      const slug = `race${round}`;
      await createCollection(t, slug, [{ slug: 'title', type: 'string' }, { slug: 'g', type: 'string' }]);
      const entry = await createEntry(t, slug, { data: { title: 'Racer', g: 'x' } });
      const scheduled = await createEntry(t, slug, { data: { title: 'Due', g: 'y' } });
      expectSuccess(await call('POST', `/content/${slug}/${scheduled.id}/schedule`, { scheduledAt: new Date(t.clock.now().getTime() + 1_000).toISOString() }));
      t.clock.advance(2_000);
      const [first, second, removal] = await Promise.all([
        call('POST', `/content/${slug}/${entry.id}/duplicate`),
        call('POST', `/content/${slug}/${entry.id}/duplicate`),
        call('DELETE', `/schema/collections/${slug}/fields/g`),
        testJobRunner(t).runDue(),
      ]);
      for (const response of [first, second]) expect([201, 409]).toContain(response.status);
      expect(removal.status).toBe(200);
      expect(expectSuccess(await call('GET', `/content/${slug}/${scheduled.id}`)).item.status).toBe('published');
    }
  });

  it('restores revisions across a translation group while its shared values are saved, without a server error', async () => {
    await createCollection(t, 'labels', [{ slug: 'name', type: 'string' }, { slug: 'code', type: 'string', translatable: false }]);
    const en = await createEntry(t, 'labels', { data: { name: 'One', code: 'a' } });
    const de = await createEntry(t, 'labels', { data: { name: 'Eins' }, locale: 'de', translationOf: en.id });
    const [enRevision] = expectSuccess(await call('GET', `/content/labels/${en.id}/revisions`)).items;
    const [deRevision] = expectSuccess(await call('GET', `/content/labels/${de.id}/revisions`)).items;
    for (let round = 0; round < 4; round++) {
      const responses = await Promise.all([
        call('POST', `/revisions/${enRevision.id}/restore`),
        call('POST', `/revisions/${deRevision.id}/restore`),
        call('PUT', `/content/labels/${en.id}`, { data: { code: `q${round}` } }),
      ]);
      for (const response of responses) expect(response.status).toBe(200);
    }
  });

  it('answers a discard-draft whose live unique value was taken meanwhile with 400 naming the field', async () => {
    await createCollection(t, 'codes', [{ slug: 'code', type: 'string', unique: true }]);
    const first = await createEntry(t, 'codes', { data: { code: 'x1' }, status: 'published' });
    expectSuccess(await call('PUT', `/content/codes/${first.id}`, { data: { code: 'y1' } }));
    await createEntry(t, 'codes', { data: { code: 'x1' }, status: 'published' });
    expect(issuePaths(await call('POST', `/content/codes/${first.id}/discard-draft`))).toEqual(['data.code']);
    expect(expectSuccess(await call('GET', `/content/codes/${first.id}`)).item.data.code).toBe('y1');
  });

  it('publishes a new translation with the live shared values while its source has a staged draft', async () => {
    await createCollection(t, 'goods', [{ slug: 'title', type: 'string' }, { slug: 'price', type: 'integer', translatable: false }]);
    const source = await createEntry(t, 'goods', { data: { title: 'A', price: 10 }, status: 'published' });
    expectSuccess(await call('PUT', `/content/goods/${source.id}`, { data: { price: 99 } }));
    const translation = await createEntry(t, 'goods', { data: { title: 'B' }, locale: 'fr', translationOf: source.id, status: 'published' });
    expect(expectSuccess(await call('GET', `/content/goods/${translation.id}`, undefined, reader)).item.data.price).toBe(10);
    expect(expectSuccess(await call('GET', `/content/goods/${translation.id}`)).item.data.price).toBe(99);
  });

  it('finds an entry whose slug is 26 digits, which also looks like an id', async () => {
    const entry = await createEntry(t, 'notes', { data: { title: 'Digits' }, slug: '01234567890123456789012345' });
    expect(expectSuccess(await call('GET', '/content/notes/01234567890123456789012345')).item.id).toBe(entry.id);
  });

  it('finds by slug the first entry the caller may see', async () => {
    await createCollection(t, 'guides', [{ slug: 'title', type: 'string' }]);
    await createEntry(t, 'guides', { data: { title: 'Same' } });
    const live = await createEntry(t, 'guides', { data: { title: 'Same' }, slug: 'same', locale: 'fr', status: 'published' });
    expect(expectSuccess(await call('GET', '/content/guides/same', undefined, reader)).item.id).toBe(live.id);
  });

  it('treats locales case-insensitively, storing their canonical form', async () => {
    expect(issuePaths(await call('POST', '/settings', { locales: ['en', 'fr', 'de', 'EN'] }))).toEqual(['locales']);
    const entry = await createEntry(t, 'guides', { data: { title: 'Upper' }, locale: 'FR' });
    expect(entry.locale).toBe('fr');
    expect(expectSuccess(await call('GET', `/content/guides/${entry.slug}?locale=Fr`)).item.id).toBe(entry.id);
  });

  it('answers an empty _rev with 409 like any other malformed one', async () => {
    const entry = await createEntry(t, 'guides', { data: { title: 'Rev' } });
    expectError(await call('PUT', `/content/guides/${entry.id}`, { data: { title: 'x' }, _rev: '' }), 409, 'CONFLICT');
  });

  it('refuses a string value longer than 500 characters (text is for long values)', async () => {
    expect(issuePaths(await call('POST', '/content/guides', { data: { title: 'x'.repeat(501) } }))).toEqual(['data.title']);
    expectCreated(await call('POST', '/content/guides', { data: { title: 'é'.repeat(500) } }));
  });

  it('keeps reference fields pointing at entries that exist', async () => {
    await createCollection(t, 'shelves', [{ slug: 'name', type: 'string' }]);
    await createCollection(t, 'racks', [{ slug: 'name', type: 'string' }]);
    const shelf = await createEntry(t, 'shelves', { data: { name: 'S' } });
    await createCollection(t, 'books2', [{ slug: 'shelf', type: 'reference', options: { collection: 'shelves' } }]);
    await createEntry(t, 'books2', { data: { shelf: shelf.id } });
    expectError(await call('PATCH', '/schema/collections/books2/fields/shelf', { options: { collection: 'racks' } }), 400, 'SCHEMA_ERROR');
    const body = { slug: 'rack', label: 'Rack', type: 'reference', options: { collection: 'racks' }, defaultValue: '01ARZ3NDEKTSV4RRFFQ69G5FAV' };
    expect(issuePaths(await call('POST', '/schema/collections/books2/fields', body))).toEqual(['defaultValue']);
    // A copy leaves out a reference whose entry was deleted for good.
    const gone = await createEntry(t, 'shelves', { data: { name: 'Gone' } });
    const book = await createEntry(t, 'books2', { data: { shelf: gone.id } });
    expectSuccess(await call('DELETE', `/content/shelves/${gone.id}`));
    expectSuccess(await call('DELETE', `/content/shelves/${gone.id}/permanent`));
    expect(expectCreated(await call('POST', `/content/books2/${book.id}/duplicate`)).item.data.shelf).toBeNull();
  });

  it('makes the slug from the plain text of a rich-text title', async () => {
    await createCollection(t, 'essays', [{ slug: 'title', type: 'portableText' }]);
    expect((await createEntry(t, 'essays', { data: { title: 'A *bold* idea' } })).slug).toBe('a-bold-idea');
  });

  it('stores a default as entries receive it', async () => {
    await createCollection(t, 'events', []);
    const field = expectCreated(await call('POST', '/schema/collections/events/fields', { slug: 'at', label: 'At', type: 'datetime', defaultValue: '2026-01-01T10:00:00+02:00' })).item;
    expect(field.defaultValue).toBe('2026-01-01T08:00:00.000Z');
    expect((await createEntry(t, 'events', { data: {} })).data.at).toBe('2026-01-01T08:00:00.000Z');
  });

  it('restores a revision live at once on a collection whose drafts were switched off', async () => {
    const page = await createEntry(t, 'pages', { data: { title: 'R1' }, status: 'published' });
    expectSuccess(await call('PATCH', '/schema/collections/pages', { supports: ['drafts', 'revisions'] }));
    expectSuccess(await call('PUT', `/content/pages/${page.id}`, { data: { title: 'R2 staged' } }));
    expectSuccess(await call('PATCH', '/schema/collections/pages', { supports: ['revisions'] }));
    const [staged] = expectSuccess(await call('GET', `/content/pages/${page.id}/revisions`)).items;
    expect(staged.data.title).toBe('R2 staged');
    expect(expectSuccess(await call('GET', `/content/pages/${page.id}`, undefined, reader)).item.data.title).toBe('R1');
    expectSuccess(await call('POST', `/revisions/${staged.id}/restore`));
    expect(expectSuccess(await call('GET', `/content/pages/${page.id}`, undefined, reader)).item.data.title).toBe('R2 staged');
    expect(expectSuccess(await call('GET', `/content/pages/${page.id}`)).item.liveData).toBeUndefined();
  });
});
