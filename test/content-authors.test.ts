import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/**
 * What the list's filters read besides the entries (decisions/0049): `GET /authors`, the people who
 * created a collection's entries, and `q` on `GET /content/:collection`, entries by title.
 */
let t: TestApp;
let editor: { user: { id: string }; token: string };
let contributor: { user: { id: string }; token: string };
let subscriber: { token: string };

const rename = async (id: string, name: string) => expectSuccess(await t.request('PATCH', `${api}/admin/users/${id}`, { token: t.adminToken, body: { name } }));
/** A GET with the admin's token, another one, or none (null). */
const get = (path: string, token: string | null = t.adminToken) => t.request('GET', `${api}${path}`, { token: token ?? undefined });
const names = async (query: string, token = t.adminToken) => (expectSuccess(await get(`/authors?${query}`, token)).items as { name: string }[]).map((author) => author.name);
const titles = async (collection: string, query: string, token = t.adminToken) =>
  (expectSuccess(await get(`/content/${collection}?${query}`, token)).items as { data: { title?: string }; slug: string }[]).map((entry) => entry.data.title ?? entry.slug);

beforeAll(async () => {
  t = await createTestApp();
  await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
  await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }]);
  await createCollection(t, 'notes', [{ slug: 'body', type: 'text' }]);
  editor = await t.userWithToken(roles.editor, ['content:read', 'content:write']);
  contributor = await t.userWithToken(roles.contributor, ['content:read', 'content:write']);
  subscriber = await t.userWithToken(roles.subscriber, ['content:read']);
  const pagesOnly = await t.userWithToken(roles.editor, ['content:read', 'content:write']);
  const trashedOnly = await t.userWithToken(roles.editor, ['content:read', 'content:write']);
  await rename(t.admin.id, 'Ada Lovelace');
  await rename(editor.user.id, 'Grace Hopper');
  await rename(contributor.user.id, 'Alan Turing');
  await rename(pagesOnly.user.id, 'Pages Person');
  await rename(trashedOnly.user.id, 'Trash Person');
  await createEntry(t, 'posts', { data: { title: 'Zebra crossing' }, status: 'published' });
  await createEntry(t, 'posts', { data: { title: 'zebra draft' } }, editor.token);
  await createEntry(t, 'posts', { data: { title: '100% pure' } }, contributor.token);
  await createEntry(t, 'posts', { data: { title: '100 pure' } }, contributor.token);
  await createEntry(t, 'posts', { data: { title: 'snake_case' }, status: 'published' });
  await createEntry(t, 'posts', { data: { title: 'snakeXcase' }, status: 'published' });
  await createEntry(t, 'pages', { data: { title: 'About' } }, pagesOnly.token);
  const gone = await createEntry(t, 'posts', { data: { title: 'Gone' } }, trashedOnly.token);
  expectSuccess(await t.request('DELETE', `${api}/content/posts/${gone.id}`, { token: t.adminToken }));
  await createEntry(t, 'notes', { slug: 'blue-whale', data: { body: 'A whale of a time' } });
});
afterAll(() => t.close());

describe('GET /authors', () => {
  it("lists the users who created the collection's entries, by name, with no email", async () => {
    const { items, nextCursor } = expectSuccess(await get('/authors?collection=posts', contributor.token));
    expect(items).toEqual([
      { id: t.admin.id, name: 'Ada Lovelace' },
      { id: contributor.user.id, name: 'Alan Turing' },
      { id: editor.user.id, name: 'Grace Hopper' },
    ]);
    expect(nextCursor).toBeUndefined();
    expect(await names('collection=pages')).toEqual(['Pages Person']);
  });

  it('narrows to names containing q, whatever the case', async () => {
    expect(await names('collection=posts&q=TUR')).toEqual(['Alan Turing']);
    expect(await names('collection=posts&q=a')).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    expect(await names('collection=posts&q=%25')).toEqual([]);
  });

  it('pages through them with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = expectSuccess(await get(`/authors?collection=posts&limit=1${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.items).toHaveLength(1);
      seen.push(page.items[0].name);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
  });

  it('refuses bad input naming the field (400)', async () => {
    expect(issuePaths(await get('/authors?collection=posts&limit=0'))).toEqual(['limit']);
    expect(issuePaths(await get('/authors?collection=posts&limit=abc'))).toEqual(['limit']);
    expect(issuePaths(await get('/authors'))).toEqual(['collection']);
    expect(issuePaths(await get('/authors?collection=posts&q='))).toEqual(['q']);
    expect(issuePaths(await get('/authors?collection=posts&cursor=nonsense'))).toEqual(['cursor']);
  });

  it('needs a credential (401), a Contributor or above (403) with content:read (403), and a collection that exists (404)', async () => {
    expectError(await get('/authors?collection=posts', null), 401, 'UNAUTHORIZED');
    expect(expectError(await get('/authors?collection=posts', subscriber.token), 403, 'FORBIDDEN').details).toMatchObject({ requiredRole: roles.contributor });
    const writeOnly = await t.userWithToken(roles.editor, ['content:write']);
    expectError(await get('/authors?collection=posts', writeOnly.token), 403, 'FORBIDDEN');
    expectError(await get('/authors?collection=nowhere'), 404, 'NOT_FOUND');
  });
});

describe('GET /content/:collection?q=', () => {
  it('finds entries whose title contains q, whatever the case', async () => {
    expect((await titles('posts', 'q=ZEBRA')).sort()).toEqual(['Zebra crossing', 'zebra draft']);
    expect(await titles('posts', 'q=zebra&status=draft')).toEqual(['zebra draft']);
  });

  it('matches % and _ literally', async () => {
    expect(await titles('posts', 'q=100%25')).toEqual(['100% pure']);
    expect(await titles('posts', 'q=e_c')).toEqual(['snake_case']);
  });

  it('pages through the matches with the cursor', async () => {
    const first = expectSuccess(await get('/content/posts?q=snake&limit=1&orderBy=title&order=asc'));
    const second = expectSuccess(await get(`/content/posts?q=snake&limit=1&orderBy=title&order=asc&cursor=${first.nextCursor}`));
    expect([first.items.length, second.items.length, second.nextCursor]).toEqual([1, 1, undefined]);
    expect([first.items[0].data.title, second.items[0].data.title].sort()).toEqual(['snakeXcase', 'snake_case']);
  });

  it('matches the slug in a collection without a title field', async () => {
    expect(await titles('notes', 'q=WHALE')).toEqual(['blue-whale']);
    expect(await titles('notes', 'q=time')).toEqual([]);
  });

  it("never lets a reader find an entry by its draft's title", async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Public notice' }, status: 'published' });
    expectSuccess(await t.request('PUT', `${api}/content/posts/${entry.id}`, { token: t.adminToken, body: { data: { title: 'Secret merger' } } }));
    await createEntry(t, 'posts', { data: { title: 'Secret memo' } });
    expect(await titles('posts', 'q=secret', subscriber.token)).toEqual([]);
    expect(await titles('posts', 'q=public', subscriber.token)).toEqual(['Public notice']);
    expect((await titles('posts', 'q=secret', contributor.token)).sort()).toEqual(['Secret memo', 'Secret merger']);
    expect(await titles('posts', 'q=public', contributor.token)).toEqual([]);
  });

  it('refuses an empty or overlong q (400 naming q)', async () => {
    expect(issuePaths(await get('/content/posts?q='))).toEqual(['q']);
    expect(issuePaths(await get(`/content/posts?q=${'x'.repeat(201)}`))).toEqual(['q']);
    expectError(await get('/content/posts?q=zebra', null), 401, 'UNAUTHORIZED');
  });
});
