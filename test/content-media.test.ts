import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { serveMcp } from './support/mcp.ts';
import { distinctPng, uploadMedia } from './support/media.ts';

/**
 * Image and file values that name media items (decisions/0014): refused when the item does not exist,
 * filled in on every read with the item's URL, dimensions and type, marked missing once it is deleted.
 */
const publicUrl = 'https://cms.example.com';
const unknownId = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const ok = expectSuccess;

let t: TestApp;
let images = 0;

interface MediaItem {
  id: string;
  url: string;
  storageKey: string;
}

/** A new media item: a PNG of 4 × 3 pixels no other test uses. */
async function newImage(alt?: string): Promise<MediaItem> {
  return uploadMedia(t, await distinctPng(images++), { alt });
}

function fileUrlOf(item: MediaItem): string {
  return `${publicUrl}/_cms/api/media/file/${item.storageKey}`;
}

/** What a read shows for a value naming `item`. */
function filled(item: MediaItem, alt?: string) {
  return { id: item.id, url: fileUrlOf(item), width: 4, height: 3, mimeType: 'image/png', ...(alt === undefined ? {} : { alt }) };
}

async function getPost(id: string, token = t.adminToken) {
  return ok(await t.request('GET', `${api}/content/posts/${id}`, { token })).item;
}

async function deleteMedia(item: MediaItem): Promise<void> {
  ok(await t.request('DELETE', `${api}/media/${item.id}`, { token: t.adminToken }));
}

/** The statements of `work` that read the media table. */
async function mediaStatementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  return (await t.statementsDuring(work)).filter((statement) => /from "media"/.test(statement));
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: publicUrl });
  ok(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { locales: ['en', 'fr'] } }));
  await createCollection(
    t,
    'posts',
    [
      { slug: 'title', type: 'string' },
      { slug: 'hero', type: 'image' },
      { slug: 'attachment', type: 'file' },
      { slug: 'cover', type: 'image', translatable: false },
    ],
    { supports: ['drafts', 'revisions'] },
  );
  await createCollection(t, 'plain', [{ slug: 'title', type: 'string' }, { slug: 'extra', type: 'json' }]);
});
afterAll(() => t.close());

describe('writing a value that names a media item', () => {
  it('creates the entry (201) and reads it back with the item filled in', async () => {
    const image = await newImage();
    const response = await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body: { data: { title: 'A', hero: { id: image.id, alt: 'A hero' } } } });
    const created = expectCreated(response).item;
    expect(created.data.hero).toEqual(filled(image, 'A hero'));
    expect((await getPost(created.id)).data.hero).toEqual(filled(image, 'A hero'));
    expect(image.url).toBe(fileUrlOf(image));
  });

  it('takes a bare media id too', async () => {
    const image = await newImage();
    const created = await createEntry(t, 'posts', { data: { title: 'Bare', attachment: image.id } });
    expect((await getPost(created.id)).data.attachment).toEqual(filled(image));
  });

  it('stores only {id, url?, alt?}: the rest is filled in on read', async () => {
    const image = await newImage();
    const created = await createEntry(t, 'posts', { data: { title: 'Stored', hero: { id: image.id, alt: 'Kept' } } });
    const revisions = ok(await t.request('GET', `${api}/content/posts/${created.id}/revisions`, { token: t.adminToken })).items;
    expect(revisions[0].data.hero).toEqual({ id: image.id, alt: 'Kept' });
  });

  it("falls back to the item's alt when the entry has none; the entry's own, even empty, wins", async () => {
    const image = await newImage('Library alt');
    const bare = await createEntry(t, 'posts', { data: { title: 'No alt', hero: image.id } });
    const decorative = await createEntry(t, 'posts', { data: { title: 'Decorative', hero: { id: image.id, alt: '' } } });
    expect((await getPost(bare.id)).data.hero).toEqual(filled(image, 'Library alt'));
    expect((await getPost(decorative.id)).data.hero).toEqual(filled(image, ''));
  });

  it('refuses an id that names no item with 400 naming the field, on create and update', async () => {
    const image = await newImage();
    const body = { data: { title: 'X', hero: { id: unknownId }, attachment: image.id } };
    expect(issuePaths(await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body }))).toEqual(['data.hero']);
    const both = { data: { title: 'X', hero: unknownId, attachment: { id: unknownId, alt: 'x' } } };
    expect(issuePaths(await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body: both })).sort()).toEqual(['data.attachment', 'data.hero']);
    const entry = await createEntry(t, 'posts', { data: { title: 'Y' } });
    expect(issuePaths(await t.request('PUT', `${api}/content/posts/${entry.id}`, { token: t.adminToken, body: { data: { hero: unknownId } } }))).toEqual(['data.hero']);
  });

  it('checks every media id of a write in one statement, and fills them in with one more', async () => {
    const [hero, attachment, cover] = [await newImage(), await newImage(), await newImage()];
    const body = { data: { title: 'Three', hero: hero.id, attachment: attachment.id, cover: cover.id } };
    // The check, and the read of the entry the create answers with.
    const statements = await mediaStatementsDuring(async () => expectCreated(await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body })));
    expect(statements).toHaveLength(2);
  });

  it('keeps URL-only values (files outside the library) as they are, with no media lookup', async () => {
    const hero = { url: 'https://images.example.org/a.png', alt: 'External' };
    let created: { id: string } | undefined;
    const statements = await mediaStatementsDuring(async () => {
      created = await createEntry(t, 'posts', { data: { title: 'External', hero, attachment: '/files/report.pdf' } });
    });
    expect(statements).toEqual([]);
    const read = await getPost(created!.id);
    expect(read.data.hero).toEqual(hero);
    expect(read.data.attachment).toEqual({ url: '/files/report.pdf' });
  });
});

describe('reading entries that name media items', () => {
  it('fills in every entry of a list page with one lookup', async () => {
    const items = await Promise.all(Array.from({ length: 6 }, () => newImage()));
    await createCollection(t, 'gallery', [{ slug: 'first', type: 'image' }, { slug: 'second', type: 'file' }]);
    for (let index = 0; index < 12; index++) {
      await createEntry(t, 'gallery', { data: { first: items[index % 6]!.id, second: { id: items[(index + 1) % 6]!.id, alt: `Second ${index}` } } });
    }
    let page: { items: { data: Record<string, unknown> }[] } = { items: [] };
    const statements = await mediaStatementsDuring(async () => {
      page = ok(await t.request('GET', `${api}/content/gallery?limit=20&order=asc`, { token: t.adminToken }));
    });
    expect(statements).toHaveLength(1);
    expect(page.items).toHaveLength(12);
    page.items.forEach((entry, index) => {
      expect(entry.data.first).toEqual(filled(items[index % 6]!));
      expect(entry.data.second).toEqual(filled(items[(index + 1) % 6]!, `Second ${index}`));
    });
  });

  it('makes no lookup for a collection without image or file fields, or without media ids', async () => {
    await createEntry(t, 'plain', { data: { title: 'Plain', extra: { id: unknownId } } });
    await createEntry(t, 'posts', { data: { title: 'Empty' } });
    for (const collection of ['plain', 'posts?status=draft&limit=1']) {
      const path = `${api}/content/${collection.includes('?') ? collection : `${collection}?limit=5`}`;
      expect(await mediaStatementsDuring(async () => ok(await t.request('GET', path, { token: t.adminToken })))).toEqual([]);
    }
    expect(ok(await t.request('GET', `${api}/content/plain?limit=5`, { token: t.adminToken })).items[0].data.extra).toEqual({ id: unknownId });
  });

  it('still reads an entry whose item was deleted: the stored value, marked missing', async () => {
    const image = await newImage();
    const created = await createEntry(t, 'posts', { data: { title: 'Orphan', hero: { id: image.id, alt: 'Gone' } } });
    await deleteMedia(image);
    expect((await getPost(created.id)).data.hero).toEqual({ id: image.id, alt: 'Gone', missing: true });
    const listed = ok(await t.request('GET', `${api}/content/posts?limit=100`, { token: t.adminToken })).items.find((entry: { id: string }) => entry.id === created.id);
    expect(listed.data.hero).toEqual({ id: image.id, alt: 'Gone', missing: true });
    // An edit of other fields still saves: only the values a write gives are checked.
    expect(ok(await t.request('PUT', `${api}/content/posts/${created.id}`, { token: t.adminToken, body: { data: { title: 'Orphan 2' } } })).item.data.hero.missing).toBe(true);
  });

  it('fills in both versions of a staged entry, and readers see the live one filled', async () => {
    const [live, staged] = [await newImage(), await newImage()];
    const entry = await createEntry(t, 'posts', { data: { title: 'Live', hero: live.id }, status: 'published' });
    const saved = ok(await t.request('PUT', `${api}/content/posts/${entry.id}`, { token: t.adminToken, body: { data: { hero: staged.id } } })).item;
    expect(saved.data.hero).toEqual(filled(staged));
    expect(saved.liveData.hero).toEqual(filled(live));
    const subscriber = (await t.userWithToken(roles.subscriber, ['content:read'])).token;
    expect((await getPost(entry.id, subscriber)).data.hero).toEqual(filled(live));
    const listed = ok(await t.request('GET', `${api}/content/posts?limit=100`, { token: subscriber })).items.find((item: { id: string }) => item.id === entry.id);
    expect(listed.data.hero).toEqual(filled(live));
    const compared = ok(await t.request('GET', `${api}/content/posts/${entry.id}/compare`, { token: t.adminToken }));
    expect(compared).toEqual(expect.objectContaining({ hasChanges: true }));
    expect([compared.published.hero, compared.draft.hero]).toEqual([filled(live), filled(staged)]);
  });

  it('fills in values for the public while publicRead is on', async () => {
    const image = await newImage();
    const entry = await createEntry(t, 'posts', { data: { title: 'Public', hero: image.id }, status: 'published' });
    ok(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { publicRead: true } }));
    try {
      expect(ok(await t.request('GET', `${api}/content/posts/${entry.id}`)).item.data.hero).toEqual(filled(image));
    } finally {
      ok(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { publicRead: false } }));
    }
  });

  it('fills in the values a translation shares with its group', async () => {
    const image = await newImage();
    const english = await createEntry(t, 'posts', { data: { title: 'Hello', cover: image.id } });
    const french = await createEntry(t, 'posts', { data: { title: 'Bonjour' }, locale: 'fr', translationOf: english.id });
    expect(french.data.cover).toEqual(filled(image));
    expect((await getPost(french.id)).data.cover).toEqual(filled(image));
  });
});

describe('media items deleted since a value named them', () => {
  it('refuse a revision restore bringing the id back with 400 naming the field', async () => {
    const image = await newImage();
    const entry = await createEntry(t, 'posts', { data: { title: 'Then', hero: image.id } });
    ok(await t.request('PUT', `${api}/content/posts/${entry.id}`, { token: t.adminToken, body: { data: { title: 'Now', hero: null } } }));
    await deleteMedia(image);
    const revisions = ok(await t.request('GET', `${api}/content/posts/${entry.id}/revisions`, { token: t.adminToken })).items;
    const then = revisions.find((revision: { data: { title: string } }) => revision.data.title === 'Then');
    expect(issuePaths(await t.request('POST', `${api}/revisions/${then.id}/restore`, { token: t.adminToken }))).toEqual(['data.hero']);
  });

  it('refuse a translation that would share the id', async () => {
    const image = await newImage();
    const english = await createEntry(t, 'posts', { data: { title: 'Source', cover: image.id } });
    await deleteMedia(image);
    const body = { data: { title: 'Traduction' }, locale: 'fr', translationOf: english.id };
    expect(issuePaths(await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body }))).toEqual(['data.cover']);
  });

  it('are not copied by a duplicate', async () => {
    const [kept, gone] = [await newImage(), await newImage()];
    const entry = await createEntry(t, 'posts', { data: { title: 'Original', hero: gone.id, attachment: kept.id } });
    await deleteMedia(gone);
    const copy = expectCreated(await t.request('POST', `${api}/content/posts/${entry.id}/duplicate`, { token: t.adminToken })).item;
    expect(copy.data.hero).toBeNull();
    expect(copy.data.attachment).toEqual(filled(kept));
  });
});

describe('the MCP content tools', () => {
  it('show the filled-in value, as REST does', async () => {
    const image = await newImage('Over MCP');
    const entry = await createEntry(t, 'posts', { data: { title: 'Tool', hero: image.id } });
    const socket = await serveMcp(t);
    try {
      const client = await socket.connect(t.adminToken);
      const got = await client.callTool({ name: 'content_get', arguments: { collection: 'posts', id: entry.id } });
      expect((got.structuredContent as { item: { data: { hero: unknown } } }).item.data.hero).toEqual(filled(image, 'Over MCP'));
      const listed = await client.callTool({ name: 'content_list', arguments: { collection: 'posts', limit: 100 } });
      const items = (listed.structuredContent as { items: { id: string; data: { hero: unknown } }[] }).items;
      expect(items.find((item) => item.id === entry.id)!.data.hero).toEqual(filled(image, 'Over MCP'));
    } finally {
      await socket.close();
    }
  });
});
