import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { fillMediaUsage } from '../src/db/migrations/0019_media_usage.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { distinctPng, uploadMedia } from './support/media.ts';

/**
 * `GET /media/:id/usage` and the `media_usage` table behind it (decisions/0045): which entries name an
 * item through image and file fields and Portable Text image and file blocks, kept by the entry
 * listener through every kind of write, and filled from existing entries by the migration.
 */
const ok = expectSuccess;
const unknownId = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

let t: TestApp;
let images = 0;

interface MediaItem {
  id: string;
  url: string;
  storageKey: string;
}

const newImage = async (): Promise<MediaItem> => uploadMedia(t, await distinctPng(images++));

async function usage(item: MediaItem, query = '', token = t.adminToken) {
  return ok(await t.request('GET', `${api}/media/${item.id}/usage${query}`, { token }));
}

/** The entries naming `item`, as `slug: fields`. */
async function usedBy(item: MediaItem): Promise<Record<string, string[]>> {
  const { items } = await usage(item);
  return Object.fromEntries(items.map((entry: { slug: string; fields: string[] }) => [entry.slug, entry.fields]));
}

async function update(id: string, body: Record<string, unknown>) {
  return ok(await t.request('PUT', `${api}/content/posts/${id}`, { token: t.adminToken, body })).item;
}

const imageBlock = (key: string, reference: Record<string, string>) => ({ _type: 'image', _key: key, ...reference });

beforeAll(async () => {
  t = await createTestApp();
  await createCollection(
    t,
    'posts',
    [
      { slug: 'title', type: 'string' },
      { slug: 'hero', type: 'image' },
      { slug: 'attachment', type: 'file' },
      { slug: 'body', type: 'portableText' },
    ],
    { supports: ['drafts'] },
  );
});
afterAll(() => t.close());

describe('GET /media/:id/usage', () => {
  it('names the entries and fields that use the item, with their title, status and locale', async () => {
    const image = await newImage();
    const other = await newImage();
    const post = await createEntry(t, 'posts', { slug: 'one', data: { title: 'First post', hero: image.id, body: [imageBlock('a', { id: other.id, url: other.url })] } });
    await createEntry(t, 'posts', { slug: 'two', data: { attachment: { id: image.id }, body: [imageBlock('b', { id: image.id, url: image.url })] } });
    const page = await usage(image);
    expect(page.total).toBe(2);
    expect(page.nextCursor).toBeUndefined();
    expect(page.items).toContainEqual({ id: post.id, collection: 'posts', slug: 'one', locale: 'en', title: 'First post', status: 'draft', deletedAt: null, fields: ['hero'] });
    // Without a title the slug names the entry.
    expect(page.items).toContainEqual(expect.objectContaining({ slug: 'two', title: 'two', fields: ['attachment', 'body'] }));
    expect(await usedBy(other)).toEqual({ one: ['body'] });
  });

  it('finds Portable Text blocks that name the item by its file URL alone, or inside nested objects', async () => {
    const image = await newImage();
    const file = await newImage();
    await createEntry(t, 'posts', { slug: 'by-url', data: { body: [imageBlock('u', { url: image.url })] } });
    const nested = { _type: 'gallery', _key: 'g', items: [{ _type: 'file', _key: 'f', mediaId: file.id, url: file.url }] };
    await createEntry(t, 'posts', { slug: 'nested', data: { body: [nested] } });
    await createEntry(t, 'posts', { slug: 'elsewhere', data: { body: [imageBlock('x', { url: 'https://elsewhere.example/a.png' })] } });
    expect(await usedBy(image)).toEqual({ 'by-url': ['body'] });
    expect(await usedBy(file)).toEqual({ nested: ['body'] });
  });

  it('follows every change: a value replaced, a staged draft beside the live values, publish, trash, delete for good', async () => {
    const first = await newImage();
    const second = await newImage();
    const post = await createEntry(t, 'posts', { slug: 'changing', data: { hero: first.id } });
    await update(post.id, { data: { hero: second.id } });
    expect(await usedBy(first)).toEqual({});
    expect(await usedBy(second)).toEqual({ changing: ['hero'] });

    ok(await t.request('POST', `${api}/content/posts/${post.id}/publish`, { token: t.adminToken }));
    // A draft staged over the live entry: the live values still name the second image.
    await update(post.id, { data: { hero: first.id } });
    expect(await usedBy(first)).toEqual({ changing: ['hero'] });
    expect(await usedBy(second)).toEqual({ changing: ['hero'] });
    ok(await t.request('POST', `${api}/content/posts/${post.id}/publish`, { token: t.adminToken }));
    expect(await usedBy(second)).toEqual({});

    ok(await t.request('DELETE', `${api}/content/posts/${post.id}`, { token: t.adminToken }));
    const trashed = (await usage(first)).items[0];
    expect(trashed).toMatchObject({ slug: 'changing', status: 'published' });
    expect(trashed.deletedAt).toEqual(expect.any(String));
    ok(await t.request('DELETE', `${api}/content/posts/${post.id}/permanent`, { token: t.adminToken }));
    expect(await usage(first)).toEqual({ items: [], total: 0 });
  });

  it('pages by entry with a cursor', async () => {
    const image = await newImage();
    for (const slug of ['p1', 'p2', 'p3']) await createEntry(t, 'posts', { slug, data: { hero: image.id } });
    const first = await usage(image, '?limit=2');
    expect(first.total).toBe(3);
    expect(first.items).toHaveLength(2);
    const second = await usage(image, `?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    expect(new Set([...first.items, ...second.items].map((entry: { slug: string }) => entry.slug))).toEqual(new Set(['p1', 'p2', 'p3']));
  });

  it('forgets a field when it is removed or no longer names media', async () => {
    await createCollection(t, 'pages', [{ slug: 'cover', type: 'image' }, { slug: 'extra', type: 'file' }]);
    const image = await newImage();
    await createEntry(t, 'pages', { slug: 'page', data: { cover: image.id, extra: image.id } });
    expect(await usedBy(image)).toEqual({ page: ['cover', 'extra'] });
    ok(await t.request('DELETE', `${api}/schema/collections/pages/fields/cover`, { token: t.adminToken }));
    expect(await usedBy(image)).toEqual({ page: ['extra'] });
    ok(await t.request('PATCH', `${api}/schema/collections/pages/fields/extra`, { token: t.adminToken, body: { type: 'json' } }));
    expect(await usage(image)).toEqual({ items: [], total: 0 });
  });

  it('is what the migration finds in existing entries', async () => {
    const recorded = await t.db.kysely.selectFrom('media_usage').selectAll().orderBy('media_id').orderBy('entry_id').orderBy('field_id').execute();
    expect(recorded.length).toBeGreaterThan(5);
    await t.db.kysely.deleteFrom('media_usage').execute();
    await fillMediaUsage(t.db.kysely);
    expect(await t.db.kysely.selectFrom('media_usage').selectAll().orderBy('media_id').orderBy('entry_id').orderBy('field_id').execute()).toEqual(recorded);
  });

  it('answers 404 for an unknown item and 400 naming a bad limit', async () => {
    expectError(await t.request('GET', `${api}/media/${unknownId}/usage`, { token: t.adminToken }), 404, 'NOT_FOUND');
    const image = await newImage();
    const bad = await t.request('GET', `${api}/media/${image.id}/usage?limit=0`, { token: t.adminToken });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(issuePaths(bad)).toEqual(['limit']);
  });

  it('needs a token (401), the media:read scope and at least a Contributor (403)', async () => {
    const image = await newImage();
    expectError(await t.request('GET', `${api}/media/${image.id}/usage`), 401, 'UNAUTHORIZED');
    const noScope = await t.userWithToken(roles.editor, ['content:read', 'media:write']);
    expectError(await t.request('GET', `${api}/media/${image.id}/usage`, { token: noScope.token }), 403, 'FORBIDDEN');
    const subscriber = await t.userWithToken(roles.subscriber, ['media:read']);
    expectError(await t.request('GET', `${api}/media/${image.id}/usage`, { token: subscriber.token }), 403, 'FORBIDDEN');
    const contributor = await t.userWithToken(roles.contributor, ['media:read']);
    expect(await usage(image, '', contributor.token)).toEqual({ items: [], total: 0 });
  });
});

describe('GET /media?q= and the title', () => {
  it('finds items by file name, title, alternative text or caption, in any case, with the type filter', async () => {
    const byName = await uploadMedia(t, await distinctPng(images++), { filename: 'Harbour-At-Dawn.png' });
    const byAlt = await uploadMedia(t, await distinctPng(images++), { alt: 'boats in the HARBOUR' });
    const byTitle = await newImage();
    ok(await t.request('PUT', `${api}/media/${byTitle.id}`, { token: t.adminToken, body: { title: 'The harbour, 100% of it' } }));
    const ids = async (query: string) => ok(await t.request('GET', `${api}/media?${query}`, { token: t.adminToken })).items.map((item: MediaItem) => item.id);
    expect(new Set(await ids('q=harbour'))).toEqual(new Set([byName.id, byAlt.id, byTitle.id]));
    expect(await ids('q=100%25')).toEqual([byTitle.id]);
    expect(await ids('q=harbour&mimeType=video/')).toEqual([]);
    expect(await ids('q=nothing-like-this')).toEqual([]);
  });

  it('keeps and clears a title through PUT /media/:id', async () => {
    const image = await newImage();
    const titled = ok(await t.request('PUT', `${api}/media/${image.id}`, { token: t.adminToken, body: { title: 'Sunset' } })).item;
    expect(titled.title).toBe('Sunset');
    expect(ok(await t.request('GET', `${api}/media/${image.id}`, { token: t.adminToken })).item.title).toBe('Sunset');
    expect(ok(await t.request('PUT', `${api}/media/${image.id}`, { token: t.adminToken, body: { title: null } })).item.title).toBeNull();
  });

  it('answers 400 naming q or title when they are out of bounds', async () => {
    const image = await newImage();
    const badQ = await t.request('GET', `${api}/media?q=${'x'.repeat(201)}`, { token: t.adminToken });
    expectError(badQ, 400, 'VALIDATION_ERROR');
    expect(issuePaths(badQ)).toEqual(['q']);
    const badTitle = await t.request('PUT', `${api}/media/${image.id}`, { token: t.adminToken, body: { title: 'x'.repeat(501) } });
    expectError(badTitle, 400, 'VALIDATION_ERROR');
    expect(issuePaths(badTitle)).toEqual(['title']);
  });
});
