import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';
import { tinyPng, uploadMedia } from './support/media.ts';
import { typeScriptDiagnostics } from './support/typescript.ts';

const api = '/_cms/api';
const collections = `${api}/schema/collections`;
const ok = expectSuccess;
const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

type Body = Record<string, unknown>;

/** Asserts a 201 success envelope and returns its data. */
function created(response: ApiResponse) {
  if (response.status !== 201 || response.body?.success !== true) {
    throw new Error(`expected 201 success, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

/** Shorthands for one app, all as the admin unless a token is given. */
function client(t: TestApp) {
  const as = (token?: string) => token ?? t.adminToken;
  return {
    createCollection: (body: Body, token?: string) => t.request('POST', collections, { token: as(token), body }),
    collection: async (slug: string, label = 'Things', extra: Body = {}) => created(await t.request('POST', collections, { token: t.adminToken, body: { slug, label, ...extra } })).item,
    field: async (collection: string, body: Body) => created(await t.request('POST', `${collections}/${collection}/fields`, { token: t.adminToken, body })).item,
    fields: async (collection: string) => ok(await t.request('GET', `${collections}/${collection}/fields`, { token: t.adminToken })).items as Body[],
    fieldSlugs: async (collection: string) => (ok(await t.request('GET', `${collections}/${collection}/fields`, { token: t.adminToken })).items as Body[]).map((field) => field.slug),
    patchField: (collection: string, field: string, body: Body) => t.request('PATCH', `${collections}/${collection}/fields/${field}`, { token: t.adminToken, body }),
    entry: async (collection: string, data: Body) => created(await t.request('POST', `${api}/content/${collection}`, { token: t.adminToken, body: { data } })).item,
    readEntry: async (collection: string, id: string) => ok(await t.request('GET', `${api}/content/${collection}/${id}`, { token: t.adminToken })).item,
    schema: async () => ok(await t.request('GET', `${api}/schema`, { token: t.adminToken })),
    collectionSlugs: async () => (ok(await t.request('GET', collections, { token: t.adminToken })).items as Body[]).map((item) => item.slug),
  };
}

/** One valid field of every type, with the options each type takes. */
const everyType: Body[] = [
  { slug: 'title', label: 'Title', type: 'string', required: true, validation: { minLength: 1, maxLength: 120, pattern: '^[^<>]*$' } },
  { slug: 'summary', label: 'Summary', type: 'text', validation: { maxLength: 2000 }, options: { rows: 4 } },
  { slug: 'rating', label: 'Rating', type: 'number', validation: { min: 0, max: 5 }, defaultValue: 2.5 },
  { slug: 'views', label: 'Views', type: 'integer', validation: { min: 0 }, unique: true },
  { slug: 'featured', label: 'Featured', type: 'boolean', defaultValue: false },
  { slug: 'happens_at', label: 'Happens at', type: 'datetime', unique: true },
  { slug: 'mood', label: 'Mood', type: 'select', validation: { options: ['calm', 'loud'] }, defaultValue: 'calm' },
  { slug: 'tags', label: 'Tags', type: 'multiSelect', validation: { options: ['a', 'b', 'c'], min: 0, max: 2 } },
  { slug: 'body', label: 'Body', type: 'portableText', searchable: true },
  { slug: 'hero', label: 'Hero', type: 'image' },
  { slug: 'attachment', label: 'Attachment', type: 'file', translatable: false },
  { slug: 'related', label: 'Related', type: 'reference', options: { collection: 'target' } },
  { slug: 'extra', label: 'Extra', type: 'json', defaultValue: { any: ['thing'] } },
  { slug: 'permalink', label: 'Permalink', type: 'slug', unique: true, validation: { maxLength: 40 } },
];

describe('collections', () => {
  let t: TestApp;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    c = client(t);
  });
  afterAll(() => t.close());

  it('creates a collection with default supports and shows it on every read', async () => {
    const response = await c.createCollection({ slug: 'post', label: 'Posts' });
    const { item } = created(response);
    expect(Object.keys(item).sort()).toEqual(['createdAt', 'id', 'label', 'slug', 'supports', 'updatedAt']);
    expect(item).toMatchObject({ slug: 'post', label: 'Posts', supports: ['drafts', 'revisions'] });
    expect(item.id).toMatch(ulidPattern);
    expect(item.createdAt).toMatch(isoPattern);
    expect(item.updatedAt).toBe(item.createdAt);

    expect(ok(await t.request('GET', `${collections}/post`, { token: t.adminToken }))).toEqual({ item });
    expect(ok(await t.request('GET', `${collections}/post?includeFields=true`, { token: t.adminToken }))).toEqual({ item: { ...item, fields: [] } });
    expect(ok(await t.request('GET', `${collections}/post?includeFields=false`, { token: t.adminToken }))).toEqual({ item });
    expect(ok(await t.request('GET', collections, { token: t.adminToken })).items).toContainEqual(item);
    // The collection is usable for content at once.
    expect((await c.entry('post', {})).type).toBe('post');
  });

  it('keeps every optional property and lists all collections', async () => {
    const body = { slug: 'recipe', label: 'Recipes', labelSingular: 'Recipe', description: 'Things to cook', icon: 'pot', supports: ['drafts', 'scheduling', 'search'] };
    const { item } = created(await c.createCollection(body));
    expect(item).toMatchObject(body);
    expect(ok(await t.request('GET', `${collections}/recipe`, { token: t.adminToken })).item).toEqual(item);
    const noFeatures = await c.collection('plain', 'Plain', { supports: [] });
    expect(noFeatures.supports).toEqual([]);
    expect((await c.collectionSlugs()).sort()).toEqual(['plain', 'post', 'recipe']);
  });

  it('accepts a 63-character slug with digits and underscores', async () => {
    const slug = `a${'b_9'.repeat(20)}yz`;
    expect(slug).toHaveLength(63);
    expect((await c.collection(slug)).slug).toBe(slug);
    ok(await t.request('GET', `${collections}/${slug}`, { token: t.adminToken }));
  });

  it('changes a collection with PATCH and shows the change on later reads', async () => {
    const before = await c.collection('note', 'Notes', { labelSingular: 'Note', description: 'Short', icon: 'pen' });
    t.clock.advance(1000);
    const { item } = ok(
      await t.request('PATCH', `${collections}/note`, { token: t.adminToken, body: { label: 'Jottings', labelSingular: null, description: null, supports: ['revisions'] } }),
    );
    expect(item).toEqual({ id: before.id, slug: 'note', label: 'Jottings', icon: 'pen', supports: ['revisions'], createdAt: before.createdAt, updatedAt: item.updatedAt });
    expect(item.updatedAt > before.updatedAt).toBe(true);
    expect(ok(await t.request('GET', `${collections}/note`, { token: t.adminToken })).item).toEqual(item);
  });

  it('refuses bad collection bodies with 400 naming the problem, creating nothing', async () => {
    const before = await c.collectionSlugs();
    const cases: [Body, string][] = [
      [{ label: 'No slug' }, 'slug'],
      [{ slug: 'nolabel' }, 'label'],
      [{ slug: 'Upper', label: 'X' }, 'slug'],
      [{ slug: '1abc', label: 'X' }, 'slug'],
      [{ slug: '_abc', label: 'X' }, 'slug'],
      [{ slug: 'a-b', label: 'X' }, 'slug'],
      [{ slug: 'a b', label: 'X' }, 'slug'],
      [{ slug: 'café', label: 'X' }, 'slug'],
      [{ slug: '', label: 'X' }, 'slug'],
      [{ slug: `a${'b'.repeat(63)}`, label: 'X' }, 'slug'],
      [{ slug: 42, label: 'X' }, 'slug'],
      [{ slug: 'okay', label: '   ' }, 'label'],
      [{ slug: 'okay', label: 'X', supports: ['drafts', 'comments'] }, 'supports.1'],
      [{ slug: 'okay', label: 'X', supports: ['drafts', 'drafts'] }, 'supports'],
      [{ slug: 'okay', label: 'X', supports: 'drafts' }, 'supports'],
      [{ slug: 'okay', label: 'X', colour: 'red' }, 'colour'],
    ];
    for (const [body, path] of cases) {
      const paths = issuePaths(await c.createCollection(body));
      expect({ body, paths: [...new Set(paths)] }).toEqual({ body, paths: [path] });
    }
    expect(issuePaths(await t.request('POST', collections, { token: t.adminToken, rawBody: '{"slug":', headers: { 'content-type': 'application/json' } })).length).toBe(1);
    expectError(await t.request('POST', collections, { token: t.adminToken, rawBody: 'slug=x', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await c.collectionSlugs()).toEqual(before);
  });

  it('refuses every reserved slug with 400 RESERVED_SLUG and creates none of them', async () => {
    const reserved = ['content', 'media', 'schema', 'search', 'sections', 'settings', 'menus', 'taxonomies', 'widget_areas', 'users', 'admin', 'auth', 'import', 'plugins', 'revisions', 'mcp', 'oauth', 'setup', 'id'];
    const before = await c.collectionSlugs();
    for (const slug of reserved) {
      const error = expectError(await c.createCollection({ slug, label: 'Reserved' }), 400, 'RESERVED_SLUG');
      expect(error.message).toContain(slug);
    }
    expect(await c.collectionSlugs()).toEqual(before);
    // A reserved word inside a longer slug is fine.
    expect((await c.collection('content_blocks')).slug).toBe('content_blocks');
  });

  it('refuses an existing slug with 409 DUPLICATE_SLUG and leaves the first one as it was', async () => {
    const first = await c.collection('event', 'Events');
    await c.field('event', { slug: 'name', label: 'Name', type: 'string' });
    expectError(await c.createCollection({ slug: 'event', label: 'Other events', supports: [] }), 409, 'DUPLICATE_SLUG');
    const after = ok(await t.request('GET', `${collections}/event?includeFields=true`, { token: t.adminToken })).item;
    expect(after).toMatchObject({ ...first, updatedAt: after.updatedAt });
    expect(after.fields.map((field: Body) => field.slug)).toEqual(['name']);
    expect((await c.collectionSlugs()).filter((slug) => slug === 'event')).toEqual(['event']);
  });

  it('refuses bad PATCH bodies with 400 and changes nothing', async () => {
    const before = await c.collection('memo', 'Memos');
    for (const [body, path] of [
      [{ slug: 'renamed' }, 'slug'],
      [{ label: '' }, 'label'],
      [{ supports: ['everything'] }, 'supports.0'],
      [{ icon: 7 }, 'icon'],
    ] as [Body, string][]) {
      const response = await t.request('PATCH', `${collections}/memo`, { token: t.adminToken, body });
      expect({ body, paths: issuePaths(response) }).toEqual({ body, paths: [path] });
    }
    expect(ok(await t.request('GET', `${collections}/memo`, { token: t.adminToken })).item).toEqual(before);
    expectError(await t.request('GET', `${collections}/renamed`, { token: t.adminToken }), 404, 'NOT_FOUND');
  });

  it('answers 404 NOT_FOUND for an unknown collection on every schema endpoint', async () => {
    const token = t.adminToken;
    const field = { slug: 'x', label: 'X', type: 'string' };
    for (const slug of ['nope', 'Nope', 'no-such-thing']) {
      const base = `${collections}/${slug}`;
      expectError(await t.request('GET', base, { token }), 404, 'NOT_FOUND');
      expectError(await t.request('PATCH', base, { token, body: { label: 'X' } }), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', base, { token }), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', `${base}?force=true`, { token }), 404, 'NOT_FOUND');
      expectError(await t.request('GET', `${base}/fields`, { token }), 404, 'NOT_FOUND');
      expectError(await t.request('POST', `${base}/fields`, { token, body: field }), 404, 'NOT_FOUND');
      expectError(await t.request('POST', `${base}/fields/reorder`, { token, body: { fieldSlugs: ['x'] } }), 404, 'NOT_FOUND');
      expectError(await t.request('PATCH', `${base}/fields/x`, { token, body: { label: 'Y' } }), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', `${base}/fields/x`, { token }), 404, 'NOT_FOUND');
    }
    expect(await c.collectionSlugs()).not.toContain('nope');
  });

  it('deletes an empty collection; the slug is free again and starts empty', async () => {
    await c.collection('draftbox', 'Drafts');
    await c.field('draftbox', { slug: 'title', label: 'Title', type: 'string' });
    expect(ok(await t.request('DELETE', `${collections}/draftbox`, { token: t.adminToken }))).toEqual({ success: true });
    expectError(await t.request('GET', `${collections}/draftbox`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `${api}/content/draftbox`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expect(await c.collectionSlugs()).not.toContain('draftbox');
    expect((await c.schema()).collections.map((item: Body) => item.slug)).not.toContain('draftbox');

    await c.collection('draftbox', 'Drafts again');
    expect(await c.fields('draftbox')).toEqual([]);
    // A field of the old collection's name can be added anew: no column was left behind.
    await c.field('draftbox', { slug: 'title', label: 'Title', type: 'integer' });
    expect((await c.entry('draftbox', { title: 3 })).data).toEqual({ title: 3 });
  });

  it('refuses to delete a collection with content unless force=true, then drops the content with it', async () => {
    await c.collection('book', 'Books');
    await c.field('book', { slug: 'title', label: 'Title', type: 'string' });
    const entry = await c.entry('book', { title: 'Dune' });
    for (const query of ['', '?force=false']) {
      const error = expectError(await t.request('DELETE', `${collections}/book${query}`, { token: t.adminToken }), 400, 'SCHEMA_ERROR');
      expect(error.message).toMatch(/force/);
    }
    expect((await c.readEntry('book', entry.id)).data).toEqual({ title: 'Dune' });
    expect(await c.fieldSlugs('book')).toEqual(['title']);

    expect(ok(await t.request('DELETE', `${collections}/book?force=true`, { token: t.adminToken }))).toEqual({ success: true });
    expectError(await t.request('GET', `${collections}/book`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `${api}/content/book/${entry.id}`, { token: t.adminToken }), 404, 'NOT_FOUND');

    await c.collection('book', 'Books');
    expect(ok(await t.request('GET', `${api}/content/book`, { token: t.adminToken })).items).toEqual([]);
    expect(ok(await t.request('GET', `${api}/content/book/trash`, { token: t.adminToken })).items).toEqual([]);
  });

  it('counts trashed entries as content when deleting a collection', async () => {
    await c.collection('bin', 'Bins');
    const entry = await c.entry('bin', {});
    ok(await t.request('DELETE', `${api}/content/bin/${entry.id}`, { token: t.adminToken }));
    expectError(await t.request('DELETE', `${collections}/bin`, { token: t.adminToken }), 400, 'SCHEMA_ERROR');
    expect(ok(await t.request('GET', `${api}/content/bin/trash`, { token: t.adminToken })).items.map((item: Body) => item.id)).toEqual([entry.id]);
    ok(await t.request('DELETE', `${collections}/bin?force=true`, { token: t.adminToken }));
    expect(await c.collectionSlugs()).not.toContain('bin');
  });

  it('refuses a malformed force flag with 400', async () => {
    await c.collection('flagged');
    expect(issuePaths(await t.request('DELETE', `${collections}/flagged?force=maybe`, { token: t.adminToken }))).toEqual(['force']);
    expect(await c.collectionSlugs()).toContain('flagged');
  });
});

describe('fields', () => {
  let t: TestApp;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    c = client(t);
    await c.collection('target', 'Targets');
  });
  afterAll(() => t.close());

  it('creates a field of every type with its options, lists them in order and stores values in all of them', async () => {
    await c.collection('kitchen', 'Kitchen sinks');
    const items: Body[] = [];
    for (const [index, body] of everyType.entries()) {
      const item = await c.field('kitchen', body);
      expect(item).toEqual({
        id: item.id,
        required: false,
        unique: false,
        validation: {},
        options: {},
        searchable: false,
        translatable: true,
        ...body,
        sortOrder: index,
        createdAt: item.createdAt,
        updatedAt: item.createdAt,
      });
      expect(item.id).toMatch(ulidPattern);
      items.push(item);
    }
    expect(await c.fields('kitchen')).toEqual(items);
    const withFields = ok(await t.request('GET', `${collections}/kitchen?includeFields=true`, { token: t.adminToken })).item;
    expect(withFields.fields).toEqual(items);

    const target = await c.entry('target', {});
    const data = {
      title: 'Soup',
      summary: 'Hot\nand wet',
      rating: 4.5,
      views: 12,
      featured: true,
      happens_at: '2026-03-01T10:00:00.000Z',
      mood: 'loud',
      tags: ['a', 'c'],
      body: [{ _type: 'block', _key: 'k1', style: 'normal', markDefs: [], children: [{ _type: 'span', _key: 's1', text: 'Hi', marks: [] }] }],
      hero: { url: '/media/file/soup.png', alt: 'Soup' },
      attachment: { url: '/media/file/recipe.pdf', alt: 'Recipe' },
      related: target.id,
      extra: { nested: [1, 'two', null] },
      permalink: 'hot-soup',
    };
    const entry = await c.entry('kitchen', data);
    expect(entry.data).toEqual(data);
    expect((await c.readEntry('kitchen', entry.id)).data).toEqual(data);
    // Defaults fill what is left out.
    const sparse = await c.entry('kitchen', { title: 'Bread' });
    expect(sparse.data).toMatchObject({ rating: 2.5, featured: false, mood: 'calm', extra: { any: ['thing'] }, views: null, tags: null });
  });

  it('accepts field slugs that are SQL keywords, and sorts by them', async () => {
    await c.collection('keywords');
    const words = ['order', 'select', 'group', 'from', 'where', 'table', 'user', 'index', 'default'];
    for (const word of words) await c.field('keywords', { slug: word, label: word, type: 'integer' });
    expect(await c.fieldSlugs('keywords')).toEqual(words);
    for (const value of [3, 1, 2]) await c.entry('keywords', Object.fromEntries(words.map((word) => [word, value])));
    const list = ok(await t.request('GET', `${api}/content/keywords?orderBy=order&order=asc`, { token: t.adminToken }));
    expect(list.items.map((item: Body) => (item.data as Body).order)).toEqual([1, 2, 3]);
    expect(list.items[0].data).toEqual(Object.fromEntries(words.map((word) => [word, 1])));
  });

  it('refuses every reserved field slug with 400 RESERVED_SLUG and adds nothing', async () => {
    await c.collection('reserved_fields');
    await c.field('reserved_fields', { slug: 'title', label: 'Title', type: 'string' });
    for (const slug of ['id', 'type', 'slug', 'status', 'data', 'locale', 'version', 'rev', 'created_at', 'updated_at', 'published_at', 'scheduled_at', 'deleted_at']) {
      const response = await t.request('POST', `${collections}/reserved_fields/fields`, { token: t.adminToken, body: { slug, label: slug, type: 'string' } });
      expect(expectError(response, 400, 'RESERVED_SLUG').message).toContain(slug);
    }
    expect(await c.fieldSlugs('reserved_fields')).toEqual(['title']);
    expect((await c.entry('reserved_fields', { title: 'Still fine' })).data).toEqual({ title: 'Still fine' });
  });

  it('refuses malformed field slugs with 400 naming slug, and a duplicate with 409 DUPLICATE_SLUG', async () => {
    await c.collection('slugs');
    const long = `f${'x'.repeat(62)}`;
    expect((await c.field('slugs', { slug: long, label: 'Long', type: 'string' })).slug).toBe(long);
    for (const slug of ['Title', '1st', '_private', 'a-b', 'a.b', 'a b', '', `${long}y`, 'naïve']) {
      const response = await t.request('POST', `${collections}/slugs/fields`, { token: t.adminToken, body: { slug, label: 'Bad', type: 'string' } });
      expect({ slug, paths: issuePaths(response) }).toEqual({ slug, paths: ['slug'] });
    }
    const duplicate = await t.request('POST', `${collections}/slugs/fields`, { token: t.adminToken, body: { slug: long, label: 'Again', type: 'integer' } });
    expectError(duplicate, 409, 'DUPLICATE_SLUG');
    expect(await c.fields('slugs')).toEqual([expect.objectContaining({ slug: long, label: 'Long', type: 'string' })]);
    expect((await c.entry('slugs', { [long]: 'text still works' })).data).toEqual({ [long]: 'text still works' });
  });

  it('refuses invalid definitions with 400 naming the rule, leaving no field behind', async () => {
    await c.collection('rules');
    await c.field('rules', { slug: 'title', label: 'Title', type: 'string' });
    const cases: [Body, string[]][] = [
      [{ type: 'string', validation: { minLength: 5, maxLength: 2 } }, ['validation.minLength']],
      [{ type: 'number', validation: { min: 10, max: 1 } }, ['validation.min']],
      [{ type: 'integer', validation: { min: 1, max: 0 } }, ['validation.min']],
      [{ type: 'string', validation: { pattern: '(' } }, ['validation.pattern']],
      [{ type: 'string', validation: { minLength: -1 } }, ['validation.minLength']],
      [{ type: 'string', validation: { maxLength: 1.5 } }, ['validation.maxLength']],
      [{ type: 'select' }, ['validation.options']],
      [{ type: 'select', validation: { options: [] } }, ['validation.options']],
      [{ type: 'select', validation: { options: ['a', 'a'] } }, ['validation.options']],
      [{ type: 'select', validation: { options: ['a', ''] } }, ['validation.options.1']],
      [{ type: 'multiSelect' }, ['validation.options']],
      [{ type: 'multiSelect', validation: { options: ['a'], min: 1.5 } }, ['validation.min']],
      [{ type: 'multiSelect', validation: { options: ['a', 'b'], min: 2, max: 1 } }, ['validation.min']],
      [{ type: 'reference' }, ['options.collection']],
      [{ type: 'reference', options: { collection: 'missing' } }, ['options.collection']],
      [{ type: 'json', unique: true }, ['unique']],
      [{ type: 'text', unique: true }, ['unique']],
      [{ type: 'boolean', unique: true }, ['unique']],
      [{ type: 'multiSelect', unique: true, validation: { options: ['a'] } }, ['unique']],
      [{ type: 'string', validation: { min: 1 } }, ['validation.min']],
      [{ type: 'boolean', validation: { options: ['yes'] } }, ['validation.options']],
      [{ type: 'string', options: { rows: 3 } }, ['options.rows']],
      [{ type: 'text', options: { rows: 0 } }, ['options.rows']],
      [{ type: 'integer', options: { collection: 'target' } }, ['options.collection']],
      [{ type: 'string', validation: { colour: 'red' } }, ['validation.colour']],
      [{ type: 'integer', defaultValue: 'seven' }, ['defaultValue']],
      [{ type: 'integer', defaultValue: 1.5 }, ['defaultValue']],
      [{ type: 'select', validation: { options: ['a'] }, defaultValue: 'b' }, ['defaultValue']],
      [{ type: 'string', validation: { maxLength: 2 }, defaultValue: 'long' }, ['defaultValue']],
      [{ type: 'string', required: true, defaultValue: '' }, ['defaultValue']],
      [{ type: 'datetime', defaultValue: 'tomorrow' }, ['defaultValue']],
      [{ type: 'color' }, ['type']],
      [{ type: 'string', required: 'yes' }, ['required']],
      [{ type: 'string', label: '' }, ['label']],
      [{ type: 'string', colour: 'red' }, ['colour']],
    ];
    for (const [definition, paths] of cases) {
      const body = { slug: 'broken', label: 'Broken', ...definition };
      const response = await t.request('POST', `${collections}/rules/fields`, { token: t.adminToken, body });
      expect({ definition, paths: issuePaths(response) }).toEqual({ definition, paths });
    }
    expect(issuePaths(await t.request('POST', `${collections}/rules/fields`, { token: t.adminToken, body: { slug: 'broken', label: 'Broken' } }))).toEqual(['type']);
    expect(await c.fieldSlugs('rules')).toEqual(['title']);
    // Nothing of the refused field remains: the slug can be taken with any type, and entries still save.
    expect((await c.field('rules', { slug: 'broken', label: 'Broken', type: 'boolean' })).type).toBe('boolean');
    expect((await c.entry('rules', { title: 'x', broken: true })).data).toEqual({ title: 'x', broken: true });
  });

  it('accepts a reference to its own collection and checks the target exists on save', async () => {
    await c.collection('page', 'Pages');
    await c.field('page', { slug: 'parent', label: 'Parent', type: 'reference', options: { collection: 'page' } });
    const parent = await c.entry('page', {});
    expect((await c.entry('page', { parent: parent.id })).data).toEqual({ parent: parent.id });
    const response = await t.request('POST', `${api}/content/page`, { token: t.adminToken, body: { data: { parent: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } } });
    expect(issuePaths(response)).toEqual(['data.parent']);
  });

  it('leaves no field the API itself refuses when the collection it references is deleted', async () => {
    await c.collection('shelf');
    await c.collection('holder');
    await c.field('holder', { slug: 'on_shelf', label: 'On shelf', type: 'reference', options: { collection: 'shelf' } });
    const shelf = await c.entry('shelf', {});
    await c.entry('holder', { on_shelf: shelf.id });
    // Refusing the delete, or removing the reference with it, are both consistent; what must not happen is a
    // field whose own definition no longer passes validation, so it cannot even be relabelled.
    const deleted = await t.request('DELETE', `${collections}/shelf?force=true`, { token: t.adminToken });
    if (deleted.status !== 200) expectError(deleted, 400, 'SCHEMA_ERROR');
    for (const field of await c.fields('holder')) {
      const relabel = await c.patchField('holder', String(field.slug), { label: `${field.label} again` });
      expect({ field: field.slug, status: relabel.status, body: relabel.body.error ?? null }).toEqual({ field: field.slug, status: 200, body: null });
    }
  });

  it('changes a field with PATCH; later reads and new entries follow the new definition', async () => {
    await c.collection('profile');
    const before = await c.field('profile', { slug: 'name', label: 'Name', type: 'string' });
    await c.field('profile', { slug: 'age', label: 'Age', type: 'integer' });
    t.clock.advance(1000);
    const body = { label: 'Full name', required: true, validation: { maxLength: 10 }, defaultValue: 'Anon', searchable: true, translatable: false };
    const { item } = ok(await c.patchField('profile', 'name', body));
    expect(item).toEqual({ ...before, ...body, updatedAt: item.updatedAt });
    expect(item.updatedAt > before.updatedAt).toBe(true);
    expect((await c.fields('profile'))[0]).toEqual(item);

    expect((await c.entry('profile', {})).data).toEqual({ name: 'Anon', age: null });
    expect(issuePaths(await t.request('POST', `${api}/content/profile`, { token: t.adminToken, body: { data: { name: 'Much too long a name' } } }))).toEqual(['data.name']);

    const { item: cleared } = ok(await c.patchField('profile', 'name', { defaultValue: null, required: false }));
    expect('defaultValue' in cleared).toBe(false);
    expect((await c.fields('profile'))[0]).toEqual(cleared);
    expect((await c.entry('profile', {})).data).toEqual({ name: null, age: null });
  });

  it('refuses a bad PATCH with 400 and leaves the field as it was', async () => {
    await c.collection('strict_patch');
    const before = await c.field('strict_patch', { slug: 'code', label: 'Code', type: 'string', validation: { maxLength: 5 } });
    const cases: [Body, string[]][] = [
      [{ validation: { minLength: 5, maxLength: 1 } }, ['validation.minLength']],
      [{ validation: { pattern: '[' } }, ['validation.pattern']],
      [{ defaultValue: 42 }, ['defaultValue']],
      [{ defaultValue: 'longer than five' }, ['defaultValue']],
      [{ unique: true, type: 'text' }, ['unique']],
      [{ slug: 'renamed' }, ['slug']],
      [{ type: 'colour' }, ['type']],
      [{ label: '  ' }, ['label']],
      [{ options: { rows: 3 } }, ['options.rows']],
    ];
    for (const [body, paths] of cases) {
      expect({ body, paths: issuePaths(await c.patchField('strict_patch', 'code', body)) }).toEqual({ body, paths });
    }
    expect(await c.fields('strict_patch')).toEqual([before]);
    expectError(await c.patchField('strict_patch', 'missing', { label: 'X' }), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', `${collections}/strict_patch/fields/missing`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expect(await c.fields('strict_patch')).toEqual([before]);
  });

  describe('type changes', () => {
    const allowed: [from: Body, to: string, value: unknown, after?: Body][] = [
      [{ type: 'string' }, 'text', 'plain words'],
      [{ type: 'text' }, 'string', 'line one\nline two'],
      [{ type: 'slug' }, 'string', 'a-slug'],
      [{ type: 'select', validation: { options: ['red', 'blue'] } }, 'string', 'blue', { validation: {} }],
      [{ type: 'datetime' }, 'text', '2026-05-01T12:00:00.000Z'],
      [{ type: 'reference', options: { collection: 'target' } }, 'string', 'TARGET', { options: {} }],
      [{ type: 'integer', validation: { min: 0 } }, 'number', 41, { validation: { min: 0 } }],
      [{ type: 'image' }, 'file', { url: '/media/file/x.png', alt: 'X' }],
      [{ type: 'file' }, 'json', 'MEDIA'],
      [{ type: 'multiSelect', validation: { options: ['a', 'b'] } }, 'json', ['a', 'b'], { validation: {} }],
      [{ type: 'portableText' }, 'json', [{ _type: 'code', _key: 'c1', code: 'x' }]],
    ];

    /** A value as given, or made now for the placeholders: an entry to reference, a media item. */
    async function madeValue(given: unknown): Promise<unknown> {
      if (given === 'TARGET') return (await c.entry('target', {})).id;
      if (given === 'MEDIA') return { id: (await uploadMedia(t, await tinyPng())).id };
      return given;
    }

    it.each(allowed)('allows %o → %s, keeping stored values', async (from, to, given, after) => {
      const name = `c_${String(from.type).toLowerCase()}_${to.toLowerCase()}`;
      await c.collection(name);
      const value = await madeValue(given);
      const field = await c.field(name, { slug: 'value', label: 'Value', ...from });
      const entry = await c.entry(name, { value });
      const empty = await c.entry(name, {});
      const { item } = ok(await c.patchField(name, 'value', { type: to }));
      expect(item).toEqual({ ...field, type: to, ...after, updatedAt: item.updatedAt });
      expect((await c.fields(name))[0]).toEqual(item);
      expect((await c.readEntry(name, entry.id)).data).toEqual({ value });
      expect((await c.readEntry(name, empty.id)).data).toEqual({ value: null });
      // The stored value can be written back under the new type.
      const copy = await c.entry(name, { value });
      expect(copy.data).toEqual({ value });
    });

    it('lets an integer field become a number field that then stores fractions', async () => {
      await c.collection('measure');
      await c.field('measure', { slug: 'size', label: 'Size', type: 'integer', unique: true });
      const whole = await c.entry('measure', { size: 9007199254740 });
      ok(await c.patchField('measure', 'size', { type: 'number' }));
      const fraction = await c.entry('measure', { size: 2.25 });
      expect((await c.readEntry('measure', whole.id)).data).toEqual({ size: 9007199254740 });
      expect((await c.readEntry('measure', fraction.id)).data).toEqual({ size: 2.25 });
      const list = ok(await t.request('GET', `${api}/content/measure?orderBy=size&order=asc`, { token: t.adminToken }));
      expect(list.items.map((item: Body) => item.id)).toEqual([fraction.id, whole.id]);
      // Still unique after the column changed.
      expect(issuePaths(await t.request('POST', `${api}/content/measure`, { token: t.adminToken, body: { data: { size: 2.25 } } }))).toEqual(['data.size']);
    });

    const refused: [from: Body, to: string, value: unknown][] = [
      [{ type: 'string' }, 'integer', 'twelve'],
      [{ type: 'string' }, 'select', 'anything'],
      [{ type: 'string' }, 'slug', 'Not A Slug'],
      [{ type: 'text' }, 'boolean', 'yes'],
      [{ type: 'number' }, 'integer', 1.5],
      [{ type: 'integer' }, 'boolean', 7],
      [{ type: 'boolean' }, 'string', true],
      [{ type: 'json' }, 'string', { a: 1 }],
      [{ type: 'datetime' }, 'integer', '2026-05-01T12:00:00.000Z'],
      [{ type: 'select', validation: { options: ['a'] } }, 'multiSelect', 'a'],
      [{ type: 'image' }, 'string', { url: '/media/file/x.png' }],
    ];

    it.each(refused)('refuses %o → %s with 400 SCHEMA_ERROR, changing nothing', async (from, to, value) => {
      const name = `r_${String(from.type).toLowerCase()}_${to.toLowerCase()}`;
      await c.collection(name);
      const field = await c.field(name, { slug: 'value', label: 'Value', ...from });
      const entry = await c.entry(name, { value });
      const error = expectError(await c.patchField(name, 'value', { type: to, label: 'Renamed' }), 400, 'SCHEMA_ERROR');
      expect(error.message).toContain(to);
      expect(await c.fields(name)).toEqual([field]);
      const read = await c.readEntry(name, entry.id);
      expect(read.data).toEqual(entry.data);
      expect((await c.entry(name, { value })).data).toEqual(entry.data);
    });

    it('refuses a type change whose definition no longer holds, changing nothing', async () => {
      await c.collection('typed_rules');
      const unique = await c.field('typed_rules', { slug: 'code', label: 'Code', type: 'string', unique: true });
      const options = await c.field('typed_rules', { slug: 'pick', label: 'Pick', type: 'select', validation: { options: ['x'] } });
      await c.entry('typed_rules', { code: 'A', pick: 'x' });
      expect(issuePaths(await c.patchField('typed_rules', 'code', { type: 'text' }))).toEqual(['unique']);
      expect(issuePaths(await c.patchField('typed_rules', 'pick', { type: 'string', validation: { options: ['x'] } }))).toEqual(['validation.options']);
      expect(await c.fields('typed_rules')).toEqual([unique, options]);
      expect(issuePaths(await t.request('POST', `${api}/content/typed_rules`, { token: t.adminToken, body: { data: { code: 'A' } } }))).toEqual(['data.code']);
      // Dropping unique in the same change is allowed.
      expect(ok(await c.patchField('typed_rules', 'code', { type: 'text', unique: false })).item).toMatchObject({ type: 'text', unique: false });
      expect((await c.entry('typed_rules', { code: 'A' })).data).toEqual({ code: 'A', pick: null });
    });
  });

  describe('unique', () => {
    it('refuses to make a field unique while entries share a value, with 400 SCHEMA_ERROR', async () => {
      await c.collection('member');
      const field = await c.field('member', { slug: 'email', label: 'Email', type: 'string' });
      const first = await c.entry('member', { email: 'a@example.com' });
      await c.entry('member', { email: 'a@example.com' });
      expectError(await c.patchField('member', 'email', { unique: true, label: 'E-mail' }), 400, 'SCHEMA_ERROR');
      expect(await c.fields('member')).toEqual([field]);
      // Still not unique: a third copy saves.
      await c.entry('member', { email: 'a@example.com' });

      const copies = ok(await t.request('GET', `${api}/content/member`, { token: t.adminToken })).items as Body[];
      for (const copy of copies.filter((item) => item.id !== first.id)) {
        ok(await t.request('PUT', `${api}/content/member/${copy.id}`, { token: t.adminToken, body: { data: { email: `${copy.id}@example.com` } } }));
      }
      expect(ok(await c.patchField('member', 'email', { unique: true })).item.unique).toBe(true);
      expect(issuePaths(await t.request('POST', `${api}/content/member`, { token: t.adminToken, body: { data: { email: 'a@example.com' } } }))).toEqual(['data.email']);
    });

    it('makes a field unique when only empty values repeat, and no longer unique on request', async () => {
      await c.collection('ticket');
      await c.field('ticket', { slug: 'code', label: 'Code', type: 'string' });
      await c.entry('ticket', {});
      await c.entry('ticket', {});
      await c.entry('ticket', { code: 'X1' });
      expect(ok(await c.patchField('ticket', 'code', { unique: true })).item.unique).toBe(true);
      await c.entry('ticket', {});
      expect(issuePaths(await t.request('POST', `${api}/content/ticket`, { token: t.adminToken, body: { data: { code: 'X1' } } }))).toEqual(['data.code']);
      expect(ok(await c.patchField('ticket', 'code', { unique: false })).item.unique).toBe(false);
      expect((await c.entry('ticket', { code: 'X1' })).data).toEqual({ code: 'X1' });
    });
  });

  it('deletes a field and its data: entries lose it, and re-adding the slug starts empty', async () => {
    await c.collection('article');
    await c.field('article', { slug: 'title', label: 'Title', type: 'string' });
    await c.field('article', { slug: 'code', label: 'Code', type: 'string', unique: true });
    await c.field('article', { slug: 'score', label: 'Score', type: 'integer' });
    const entries = [await c.entry('article', { title: 'One', code: 'same', score: 1 }), await c.entry('article', { title: 'Two', code: 'other', score: 2 })];

    expect(ok(await t.request('DELETE', `${collections}/article/fields/code`, { token: t.adminToken }))).toEqual({ success: true });
    expect(await c.fieldSlugs('article')).toEqual(['title', 'score']);
    for (const [index, entry] of entries.entries()) {
      expect((await c.readEntry('article', entry.id)).data).toEqual({ title: entry.data.title, score: index + 1 });
    }
    expect(issuePaths(await t.request('POST', `${api}/content/article`, { token: t.adminToken, body: { data: { code: 'same' } } }))).toEqual(['data.code']);
    expect(issuePaths(await t.request('GET', `${api}/content/article?orderBy=code`, { token: t.adminToken }))).toEqual(['orderBy']);
    expectError(await t.request('DELETE', `${collections}/article/fields/code`, { token: t.adminToken }), 404, 'NOT_FOUND');

    // Same slug, not unique this time: old values are gone and the old unique index with them.
    await c.field('article', { slug: 'code', label: 'Code', type: 'string' });
    for (const entry of entries) expect((await c.readEntry('article', entry.id)).data.code).toBeNull();
    await c.entry('article', { code: 'dup' });
    expect((await c.entry('article', { code: 'dup' })).data.code).toBe('dup');

    // A deleted sortable field leaves the others sortable.
    ok(await t.request('DELETE', `${collections}/article/fields/score`, { token: t.adminToken }));
    const list = ok(await t.request('GET', `${api}/content/article?orderBy=title&order=asc&limit=2`, { token: t.adminToken }));
    expect(list.items.map((item: Body) => (item.data as Body).title)).toEqual([null, null]);
    expect(await c.fieldSlugs('article')).toEqual(['title', 'code']);
  });

  it('reorders fields; the order shows on every read and new fields go last', async () => {
    await c.collection('ordered');
    for (const slug of ['a', 'b', 'c', 'd']) await c.field('ordered', { slug, label: slug.toUpperCase(), type: 'string' });
    const { items } = ok(await t.request('POST', `${collections}/ordered/fields/reorder`, { token: t.adminToken, body: { fieldSlugs: ['c', 'a', 'd', 'b'] } }));
    expect(items.map((field: Body) => [field.slug, field.sortOrder])).toEqual([['c', 0], ['a', 1], ['d', 2], ['b', 3]]);
    expect(await c.fields('ordered')).toEqual(items);
    expect(ok(await t.request('GET', `${collections}/ordered?includeFields=true`, { token: t.adminToken })).item.fields).toEqual(items);
    const exported = (await c.schema()).collections.find((item: Body) => item.slug === 'ordered');
    expect(exported.fields.map((field: Body) => field.slug)).toEqual(['c', 'a', 'd', 'b']);

    await c.field('ordered', { slug: 'e', label: 'E', type: 'string' });
    expect(await c.fieldSlugs('ordered')).toEqual(['c', 'a', 'd', 'b', 'e']);
    ok(await t.request('DELETE', `${collections}/ordered/fields/a`, { token: t.adminToken }));
    await c.field('ordered', { slug: 'f', label: 'F', type: 'string' });
    expect(await c.fieldSlugs('ordered')).toEqual(['c', 'd', 'b', 'e', 'f']);
  });

  it('counts the entries and the values of each field, what deleting them would destroy', async () => {
    await c.collection('counted', 'Counted');
    await c.field('counted', { slug: 'title', label: 'Title', type: 'string' });
    await c.field('counted', { slug: 'summary', label: 'Summary', type: 'text' });
    await c.entry('counted', { title: 'A', summary: 'Short' });
    await c.entry('counted', { title: 'B' });
    const trashed = await c.entry('counted', { title: 'C', summary: 'Gone soon' });
    ok(await t.request('DELETE', `${api}/content/counted/${trashed.id}`, { token: t.adminToken }));

    const counted = ok(await t.request('GET', `${collections}/counted?includeFields=true&counts=true`, { token: t.adminToken })).item;
    expect(counted.entries).toBe(3);
    expect(counted.fields.map((field: Body) => [field.slug, field.values])).toEqual([['title', 3], ['summary', 2]]);
    const bare = ok(await t.request('GET', `${collections}/counted?counts=true`, { token: t.adminToken })).item;
    expect([bare.entries, bare.fields]).toEqual([3, undefined]);
    // Without counts, neither is read.
    const plain = ok(await t.request('GET', `${collections}/counted?includeFields=true`, { token: t.adminToken })).item;
    expect([plain.entries, plain.fields[0].values]).toEqual([undefined, undefined]);
    expect(issuePaths(await t.request('GET', `${collections}/counted?counts=maybe`, { token: t.adminToken }))).toEqual(['counts']);
  });

  it('refuses a reorder that is not a permutation of all fields with 400 naming fieldSlugs', async () => {
    await c.collection('unordered');
    for (const slug of ['x', 'y', 'z']) await c.field('unordered', { slug, label: slug, type: 'string' });
    const before = await c.fields('unordered');
    for (const body of [
      { fieldSlugs: ['x', 'y'] },
      { fieldSlugs: ['x', 'y', 'z', 'w'] },
      { fieldSlugs: ['x', 'y', 'w'] },
      { fieldSlugs: ['x', 'x', 'y', 'z'] },
      { fieldSlugs: ['x', 'x', 'y'] },
      { fieldSlugs: [] },
      { fieldSlugs: 'x,y,z' },
      { fieldSlugs: ['x', 'y', 3] },
      {},
    ]) {
      const paths = issuePaths(await t.request('POST', `${collections}/unordered/fields/reorder`, { token: t.adminToken, body }));
      expect({ body, named: paths.every((path) => path.startsWith('fieldSlugs')) && paths.length > 0 }).toEqual({ body, named: true });
    }
    expect(issuePaths(await t.request('POST', `${collections}/unordered/fields/reorder`, { token: t.adminToken, body: { fieldSlugs: ['z', 'y', 'x'], extra: 1 } }))).toEqual(['extra']);
    expect(await c.fields('unordered')).toEqual(before);
  });
});

describe('GET /schema', () => {
  let t: TestApp;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    c = client(t);
  });
  afterAll(() => t.close());

  it('returns every collection with its fields in order, and a version', async () => {
    const empty = await c.schema();
    expect(empty).toEqual({ collections: [], version: expect.any(String) });
    const emptySource = (await t.request('GET', `${api}/schema?format=typescript`, { token: t.adminToken })).body;
    expect(emptySource).toContain('export interface Collections {\n}');
    expect(typeScriptDiagnostics(emptySource)).toEqual([]);
    const target = await c.collection('target', 'Targets');
    const post = await c.collection('post', 'Posts', { labelSingular: 'Post', description: 'Blog posts' });
    const title = await c.field('post', { slug: 'title', label: 'Title', type: 'string', required: true });
    const ref = await c.field('post', { slug: 'about', label: 'About', type: 'reference', options: { collection: 'target' } });
    const data = await c.schema();
    expect(Object.keys(data).sort()).toEqual(['collections', 'version']);
    const bySlug = Object.fromEntries(data.collections.map((item: Body) => [item.slug, item]));
    expect(Object.keys(bySlug).sort()).toEqual(['post', 'target']);
    expect(bySlug.post).toEqual({ ...post, updatedAt: bySlug.post.updatedAt, fields: [title, ref] });
    expect(bySlug.target).toEqual({ ...target, fields: [] });
    expect((await c.schema()).version).toBe(data.version);
    expect(data.version).not.toBe(empty.version);
    expect(ok(await t.request('GET', `${api}/schema?format=json`, { token: t.adminToken }))).toEqual(data);
  });

  it('changes the version after every kind of schema change', async () => {
    await c.collection('versioned');
    const steps: [string, () => Promise<unknown>][] = [
      ['create collection', () => c.collection('another')],
      ['patch collection', async () => ok(await t.request('PATCH', `${collections}/another`, { token: t.adminToken, body: { label: 'Renamed' } }))],
      ['patch supports', async () => ok(await t.request('PATCH', `${collections}/another`, { token: t.adminToken, body: { supports: [] } }))],
      ['create field', () => c.field('versioned', { slug: 'one', label: 'One', type: 'string' })],
      ['create second field', () => c.field('versioned', { slug: 'two', label: 'Two', type: 'integer' })],
      ['patch field label', async () => ok(await c.patchField('versioned', 'one', { label: 'First' }))],
      ['patch field rules', async () => ok(await c.patchField('versioned', 'one', { validation: { maxLength: 9 } }))],
      ['patch field type', async () => ok(await c.patchField('versioned', 'two', { type: 'number' }))],
      ['reorder fields', async () => ok(await t.request('POST', `${collections}/versioned/fields/reorder`, { token: t.adminToken, body: { fieldSlugs: ['two', 'one'] } }))],
      ['delete field', async () => ok(await t.request('DELETE', `${collections}/versioned/fields/two`, { token: t.adminToken }))],
      ['delete collection', async () => ok(await t.request('DELETE', `${collections}/another`, { token: t.adminToken }))],
    ];
    const seen = [(await c.schema()).version];
    for (const [step, change] of steps) {
      await change();
      const { version } = await c.schema();
      expect({ step, changed: version !== seen.at(-1) }).toEqual({ step, changed: true });
      seen.push(version);
    }
    // Content changes and refused schema writes leave it alone.
    await c.entry('versioned', { one: 'x' });
    expectError(await c.patchField('versioned', 'one', { type: 'boolean' }), 400, 'SCHEMA_ERROR');
    expectError(await t.request('POST', collections, { token: t.adminToken, body: { slug: 'versioned', label: 'Again' } }), 409, 'DUPLICATE_SLUG');
    expect((await c.schema()).version).toBe(seen.at(-1));
  });

  it('serves TypeScript for format=typescript and for Accept: text/typescript, and it compiles', async () => {
    await c.collection('article', 'Articles', { labelSingular: 'Article' });
    for (const body of everyType) await c.field('article', body);
    await c.collection('odd_one', 'Odd */ ones', { labelSingular: '2nd "odd" */ one', description: 'Tries */ to break out' });
    await c.field('odd_one', { slug: 'class', label: 'Class */', type: 'select', validation: { options: ["it's", '"quoted"', '*/', 'back\\slash'] } });

    const byQuery = await t.request('GET', `${api}/schema?format=typescript`, { token: t.adminToken });
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers.get('content-type')).toMatch(/^text\/typescript/);
    expect(typeof byQuery.body).toBe('string');
    const byAccept = await t.request('GET', `${api}/schema`, { token: t.adminToken, headers: { accept: 'text/typescript' } });
    expect(byAccept.status).toBe(200);
    expect(byAccept.headers.get('content-type')).toMatch(/^text\/typescript/);
    expect(byAccept.body).toBe(byQuery.body);

    const source: string = byQuery.body;
    expect(typeScriptDiagnostics(source)).toEqual([]);
    expect(source).toMatch(/export interface Collections \{[^}]*\barticle: Article;[^}]*\bodd_one: \w+;[^}]*\btarget: Target;/);
    expect(source).toContain('  title: string;');
    expect(source).toContain('  mood?: "calm" | "loud" | null;');
    expect(source).toContain('  tags?: ("a" | "b" | "c")[] | null;');
    // The compiler does catch a wrong value, so the empty diagnostics above mean something.
    expect(typeScriptDiagnostics(`${source}\nexport const wrong: ArticleData = { title: 'x', mood: 'quiet' };\n`)).not.toEqual([]);
  });

  it('generates item types that accept entries exactly as the API returns them', async () => {
    const source: string = (await t.request('GET', `${api}/schema?format=typescript`, { token: t.adminToken })).body;
    const targetEntry = await c.entry('target', {});
    const entry = await c.entry('article', {
      title: 'Typed',
      mood: 'loud',
      tags: ['b'],
      body: 'Some **Markdown**',
      hero: '/media/file/a.png',
      related: targetEntry.id,
      permalink: 'typed',
      happens_at: '2026-04-01',
    });
    const read = await c.readEntry('article', entry.id);
    // A published entry with a staged draft carries liveData and publishedAt.
    ok(await t.request('POST', `${api}/content/article/${entry.id}/publish`, { token: t.adminToken }));
    const staged = ok(await t.request('PUT', `${api}/content/article/${entry.id}`, { token: t.adminToken, body: { data: { title: 'Retyped' } } })).item;
    expect(staged.liveData).toBeDefined();
    // A trashed entry carries deletedAt.
    const doomed = await c.entry('article', { title: 'Doomed' });
    ok(await t.request('DELETE', `${api}/content/article/${doomed.id}`, { token: t.adminToken }));
    const trashed = ok(await t.request('GET', `${api}/content/article/trash`, { token: t.adminToken })).items[0];
    expect(trashed.deletedAt).toEqual(expect.any(String));
    const samples = { created: entry, read, staged, trashed };
    const declarations = Object.entries(samples).map(([name, item]) => `export const ${name}: Collections['article'] = ${JSON.stringify(item)};`);
    expect(typeScriptDiagnostics(`${source}\n${declarations.join('\n')}\n`)).toEqual([]);
  });

  it('answers JSON when format=json wins over the Accept header, and 400 for an unknown format', async () => {
    const json = await t.request('GET', `${api}/schema?format=json`, { token: t.adminToken, headers: { accept: 'text/typescript' } });
    expect(ok(json)).toEqual(await c.schema());
    expect(json.headers.get('content-type')).toMatch(/json/);
    expect(issuePaths(await t.request('GET', `${api}/schema?format=xml`, { token: t.adminToken }))).toEqual(['format']);
  });
});

describe('schema access', () => {
  let t: TestApp;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    c = client(t);
    await c.collection('guarded', 'Guarded');
    await c.field('guarded', { slug: 'title', label: 'Title', type: 'string' });
    await c.field('guarded', { slug: 'body', label: 'Body', type: 'text' });
  });
  afterAll(() => t.close());

  const reads: [string, string][] = [
    ['GET', collections],
    ['GET', `${collections}/guarded`],
    ['GET', `${collections}/guarded?includeFields=true`],
    ['GET', `${collections}/guarded/fields`],
    ['GET', `${api}/schema`],
    ['GET', `${api}/schema?format=typescript`],
  ];
  const writes: [string, string, Body?][] = [
    ['POST', collections, { slug: 'sneaky', label: 'Sneaky' }],
    ['PATCH', `${collections}/guarded`, { label: 'Taken over' }],
    ['DELETE', `${collections}/guarded?force=true`],
    ['POST', `${collections}/guarded/fields`, { slug: 'sneaky', label: 'Sneaky', type: 'string' }],
    ['PATCH', `${collections}/guarded/fields/title`, { label: 'Taken over' }],
    ['POST', `${collections}/guarded/fields/reorder`, { fieldSlugs: ['body', 'title'] }],
    ['DELETE', `${collections}/guarded/fields/body`],
  ];

  /** What a refused write must not have changed. */
  async function expectSchemaUntouched() {
    expect(await c.collectionSlugs()).toEqual(['guarded']);
    const item = ok(await t.request('GET', `${collections}/guarded?includeFields=true`, { token: t.adminToken })).item;
    expect(item.label).toBe('Guarded');
    expect(item.fields.map((field: Body) => [field.slug, field.label])).toEqual([['title', 'Title'], ['body', 'Body']]);
  }

  it('answers 401 without a token or with a bad one, on every endpoint', async () => {
    for (const token of [undefined, 'not-a-real-token']) {
      for (const [method, path] of reads) expectError(await t.request(method, path, { token }), 401, 'UNAUTHORIZED');
      for (const [method, path, body] of writes) expectError(await t.request(method, path, { token, body }), 401, 'UNAUTHORIZED');
    }
    // Unknown collections are not revealed to callers without a token either.
    expectError(await t.request('GET', `${collections}/nope`), 401, 'UNAUTHORIZED');
    await expectSchemaUntouched();
  });

  it('answers 403 with requiredScope when the token lacks the schema scope', async () => {
    const { token } = await t.userWithToken(50, ['content:read', 'content:write', 'media:read', 'media:write']);
    for (const [method, path] of reads) {
      expect(expectError(await t.request(method, path, { token }), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'schema:read' });
    }
    for (const [method, path, body] of writes) {
      expect(expectError(await t.request(method, path, { token, body }), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'schema:write' });
    }
    await expectSchemaUntouched();
  });

  it('lets schema:read read but not write, even for an admin', async () => {
    const { token } = await t.userWithToken(50, ['schema:read']);
    for (const [method, path] of reads) expect(((await t.request(method, path, { token })).status)).toBe(200);
    for (const [method, path, body] of writes) {
      expect(expectError(await t.request(method, path, { token, body }), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'schema:write' });
    }
    await expectSchemaUntouched();
  });

  it('lets an Editor with schema:read read the schema, refusing every write', async () => {
    const { token } = await t.userWithToken(40, ['schema:read', 'content:read', 'content:write']);
    for (const [method, path] of reads) expect((await t.request(method, path, { token })).status).toBe(200);
    expect(ok(await t.request('GET', `${api}/schema`, { token }))).toEqual(await c.schema());
    for (const [method, path, body] of writes) expectError(await t.request(method, path, { token, body }), 403, 'FORBIDDEN');
    await expectSchemaUntouched();
  });

  it('refuses an Editor whose token carries schema:write (granted while Admin) with 403, writing nothing', async () => {
    const { user, token } = await t.userWithToken(50, ['schema:read', 'schema:write']);
    ok(await t.request('PATCH', `${api}/admin/users/${user.id}`, { token: t.adminToken, body: { role: 40 } }));
    for (const [method, path, body] of writes) {
      const error = expectError(await t.request(method, path, { token, body }), 403, 'FORBIDDEN');
      expect({ method, path, details: error.details }).toEqual({ method, path, details: { requiredScope: 'schema:write' } });
    }
    // The read half of the token still works for an Editor.
    ok(await t.request('GET', collections, { token }));
    await expectSchemaUntouched();
  });

  it('refuses an Author whose token carries schema:read (granted while Editor) with 403 on every read', async () => {
    const { user, token } = await t.userWithToken(40, ['schema:read', 'content:read']);
    ok(await t.request('GET', collections, { token }));
    ok(await t.request('PATCH', `${api}/admin/users/${user.id}`, { token: t.adminToken, body: { role: 30 } }));
    for (const [method, path] of reads) {
      const error = expectError(await t.request(method, path, { token }), 403, 'FORBIDDEN');
      expect({ path, details: error.details }).toEqual({ path, details: { requiredScope: 'schema:read' } });
    }
    // Content access is unaffected.
    ok(await t.request('GET', `${api}/content/guarded`, { token }));
  });

  it('refuses to issue schema scopes above a user’s role', async () => {
    const editor = await t.userWithToken(40, ['content:read']);
    const author = await t.userWithToken(30, ['content:read']);
    const askFor = (userId: string, scopes: string[]) => t.request('POST', `${api}/admin/tokens`, { token: t.adminToken, body: { userId, name: 'x', scopes } });
    expect(issuePaths(await askFor(editor.user.id, ['schema:write']))).toEqual(['scopes']);
    expect(issuePaths(await askFor(author.user.id, ['schema:read']))).toEqual(['scopes']);
    expect(created(await askFor(editor.user.id, ['schema:read'])).token).toEqual(expect.any(String));
  });
});
