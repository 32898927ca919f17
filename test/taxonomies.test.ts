import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/** Taxonomy definitions, terms (flat and nested) and entries' terms, over REST and MCP. */
describe('taxonomies', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }]);
    writer = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
    reader = (await t.userWithToken(10, ['content:read'])).token;
    expectCreated(await request('POST', '/taxonomies', { name: 'category', label: 'Categories', labelSingular: 'Category', hierarchical: true, collections: ['posts'] }));
    expectCreated(await request('POST', '/taxonomies', { name: 'tag', label: 'Tags', collections: ['posts', 'pages'] }));
  });
  afterAll(() => t.close());

  describe('definitions', () => {
    it('creates, lists, reads, changes and deletes a taxonomy', async () => {
      const created = expectCreated(await request('POST', '/taxonomies', { name: 'genre', label: 'Genres', collections: ['pages'] })).item;
      expect(created).toMatchObject({ name: 'genre', label: 'Genres', labelSingular: null, hierarchical: false, collections: ['pages'] });
      expect(expectSuccess(await request('GET', '/taxonomies', undefined, reader)).items.map((item: { name: string }) => item.name)).toEqual(['category', 'genre', 'tag']);
      const changed = expectSuccess(await request('PATCH', '/taxonomies/genre', { label: 'Kinds', collections: ['pages', 'posts'] })).item;
      expect(changed).toMatchObject({ label: 'Kinds', collections: ['pages', 'posts'] });
      expect(expectSuccess(await request('GET', '/taxonomies/genre', undefined, reader)).item).toEqual(changed);
      expectCreated(await request('POST', '/taxonomies/genre/terms', { slug: 'jazz', label: 'Jazz' }));
      expect(expectSuccess(await request('DELETE', '/taxonomies/genre'))).toEqual({ success: true });
      expectError(await request('GET', '/taxonomies/genre'), 404, 'NOT_FOUND');
    });

    it('drops a deleted collection from the taxonomies, with its entries\' terms', async () => {
      await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }]);
      expectSuccess(await request('PATCH', '/taxonomies/tag', { collections: ['notes', 'pages', 'posts'] }));
      const note = await createEntry(t, 'notes', { data: { title: 'Note' } });
      const term = expectCreated(await request('POST', '/taxonomies/tag/terms', { slug: 'noted', label: 'Noted' })).item;
      expectSuccess(await request('POST', `/content/notes/${note.id}/terms/tag`, { termIds: [term.id] }));
      expectSuccess(await request('DELETE', '/schema/collections/notes?force=true'));
      expect(expectSuccess(await request('GET', '/taxonomies/tag')).item.collections).toEqual(['pages', 'posts']);
      expect(expectSuccess(await request('GET', '/taxonomies/tag/terms?limit=100')).items.find((item: { id: string }) => item.id === term.id).count).toBe(0);
    });

    it('refuses a taken name (409), an unknown collection and a malformed name (400)', async () => {
      expectError(await request('POST', '/taxonomies', { name: 'tag', label: 'Again' }), 409, 'CONFLICT');
      expect(issuePaths(await request('POST', '/taxonomies', { name: 'topic', label: 'Topics', collections: ['posts', 'nope'] }))).toEqual(['collections.1']);
      expect(issuePaths(await request('POST', '/taxonomies', { name: 'Bad Name', label: '', extra: 1 }))).toEqual(['name', 'label', 'extra']);
      expect(issuePaths(await request('PATCH', '/taxonomies/tag', { collections: ['nope'] }))).toEqual(['collections.0']);
      expectError(await request('PATCH', '/taxonomies/nope', { label: 'x' }), 404, 'NOT_FOUND');
    });

    it('needs a token (401), content:read to read and schema:write to define (403)', async () => {
      expectError(await request('GET', '/taxonomies', undefined, null), 401, 'UNAUTHORIZED');
      expect(expectError(await request('POST', '/taxonomies', { name: 'x', label: 'X' }, writer), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'schema:write' });
      expect(expectError(await request('DELETE', '/taxonomies/tag', undefined, writer), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'schema:write' });
      const noScope = (await t.userWithToken(40, ['media:read'])).token;
      expect(expectError(await request('GET', '/taxonomies/tag/terms', undefined, noScope), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:read' });
    });
  });

  describe('terms', () => {
    it('nests terms in a hierarchical taxonomy, pages them by slug, and moves children up when a term goes', async () => {
      const news = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'news', label: 'News' }, writer)).item;
      const world = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'world', label: 'World', parentId: news.id, description: 'Abroad' }, writer)).item;
      const europe = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'europe', label: 'Europe', parentId: world.id }, writer)).item;
      expect(world).toMatchObject({ slug: 'world', label: 'World', parentId: news.id, description: 'Abroad', count: 0 });
      const first = expectSuccess(await request('GET', '/taxonomies/category/terms?limit=2', undefined, reader));
      expect(first.items.map((term: { slug: string }) => term.slug)).toEqual(['europe', 'news']);
      const second = expectSuccess(await request('GET', `/taxonomies/category/terms?limit=2&cursor=${first.nextCursor}`, undefined, reader));
      expect(second.items.map((term: { slug: string }) => term.slug)).toEqual(['world']);
      expect(second.nextCursor).toBeUndefined();
      expect(expectSuccess(await request('DELETE', '/taxonomies/category/terms/world', undefined, writer))).toEqual({ success: true });
      const all = expectSuccess(await request('GET', '/taxonomies/category/terms', undefined, reader)).items;
      expect(all.find((term: { id: string }) => term.id === europe.id).parentId).toBe(news.id);
    });

    it('changes a term, and never makes a cycle', async () => {
      const a = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'a', label: 'A' })).item;
      const b = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'b', label: 'B', parentId: a.id })).item;
      const c = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'c', label: 'C', parentId: b.id })).item;
      expect(issuePaths(await request('PUT', '/taxonomies/category/terms/a', { parentId: c.id }))).toEqual(['parentId']);
      expect(issuePaths(await request('PUT', '/taxonomies/category/terms/a', { parentId: a.id }))).toEqual(['parentId']);
      const moved = expectSuccess(await request('PUT', '/taxonomies/category/terms/c', { slug: 'c-renamed', label: 'C2', parentId: null, description: 'Top' })).item;
      expect(moved).toMatchObject({ id: c.id, slug: 'c-renamed', label: 'C2', parentId: null, description: 'Top' });
      expectError(await request('PUT', '/taxonomies/category/terms/c-renamed', { slug: 'b' }), 409, 'DUPLICATE_SLUG');
      expectError(await request('PUT', '/taxonomies/category/terms/c', { label: 'gone' }), 404, 'NOT_FOUND');
    });

    it('refuses a taken slug (409), a parent in a flat taxonomy or from another taxonomy, and bad input (400)', async () => {
      expectCreated(await request('POST', '/taxonomies/tag/terms', { slug: 'red', label: 'Red' }));
      expectError(await request('POST', '/taxonomies/tag/terms', { slug: 'red', label: 'Red again' }), 409, 'DUPLICATE_SLUG');
      const red = expectSuccess(await request('GET', '/taxonomies/tag/terms')).items.find((term: { slug: string }) => term.slug === 'red');
      expect(issuePaths(await request('POST', '/taxonomies/tag/terms', { slug: 'blue', label: 'Blue', parentId: red.id }))).toEqual(['parentId']);
      expect(issuePaths(await request('POST', '/taxonomies/category/terms', { slug: 'x', label: 'X', parentId: red.id }))).toEqual(['parentId']);
      expect(issuePaths(await request('POST', '/taxonomies/tag/terms', { slug: 'Not Safe', label: '' }))).toEqual(['slug', 'label']);
      expect(issuePaths(await request('GET', '/taxonomies/tag/terms?limit=101'))).toEqual(['limit']);
      expectError(await request('POST', '/taxonomies/nope/terms', { slug: 'x', label: 'X' }), 404, 'NOT_FOUND');
      expectError(await request('POST', '/taxonomies/tag/terms', { slug: 'x', label: 'X' }, null), 401, 'UNAUTHORIZED');
      expect(expectError(await request('POST', '/taxonomies/tag/terms', { slug: 'x', label: 'X' }, reader), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:write' });
    });
  });

  describe('the tree and its order', () => {
    type Node = { id: string; slug: string; count: number; sortOrder: number; children: Node[] };
    const shape = (nodes: Node[]): unknown[] => nodes.map((node) => (node.children.length > 0 ? { [node.slug]: shape(node.children) } : node.slug));
    const tree = async (name: string, token: string | null = t.adminToken) => expectSuccess(await request('GET', `/taxonomies/${name}/tree`, undefined, token)).items as Node[];

    it('reads the whole tree in order with counts, puts new terms last, and moves terms by a reorder', async () => {
      expectCreated(await request('POST', '/taxonomies', { name: 'shelf', label: 'Shelves', hierarchical: true, collections: ['posts'] }));
      const add = async (slug: string, parentId?: string) => expectCreated(await request('POST', '/taxonomies/shelf/terms', { slug, label: slug, ...(parentId ? { parentId } : {}) })).item as { id: string; sortOrder: number };
      const zebra = await add('zebra');
      const apple = await add('apple');
      const mango = await add('mango', zebra.id);
      expect([zebra.sortOrder, apple.sortOrder, mango.sortOrder]).toEqual([0, 1, 0]);
      const post = await createEntry(t, 'posts', { data: { title: 'Shelved' } });
      expectSuccess(await request('POST', `/content/posts/${post.id}/terms/shelf`, { termIds: [mango.id] }));
      // Added last, not by slug.
      expect(shape(await tree('shelf', reader))).toEqual([{ zebra: ['mango'] }, 'apple']);
      expect((await tree('shelf'))[0]!.children[0]).toMatchObject({ slug: 'mango', count: 1 });

      const moved = expectSuccess(await request('POST', '/taxonomies/shelf/terms/reorder', { terms: [{ id: apple.id, parentId: null, sortOrder: 0 }, { id: zebra.id, parentId: apple.id, sortOrder: 0 }] }, writer)).items;
      expect(shape(moved)).toEqual([{ apple: [{ zebra: ['mango'] }] }]);
      expect(shape(await tree('shelf'))).toEqual([{ apple: [{ zebra: ['mango'] }] }]);
      // The whole tree sent for one move (as the panel sends it): only the terms whose place changes are changed.
      const updatedAt = (nodes: Node[]): Record<string, string> => Object.fromEntries(nodes.flatMap(function all(node: Node): [string, string][] {
        return [[node.slug, (node as Node & { updatedAt: string }).updatedAt], ...node.children.flatMap(all)];
      }));
      const stamped = updatedAt(await tree('shelf'));
      t.clock.advance(60_000);
      const whole = [{ id: apple.id, parentId: null, sortOrder: 0 }, { id: mango.id, parentId: apple.id, sortOrder: 0 }, { id: zebra.id, parentId: apple.id, sortOrder: 1 }];
      expect(shape(expectSuccess(await request('POST', '/taxonomies/shelf/terms/reorder', { terms: whole }, writer)).items)).toEqual([{ apple: ['mango', 'zebra'] }]);
      const restamped = updatedAt(await tree('shelf'));
      expect(restamped.apple).toBe(stamped.apple);
      expect([restamped.mango, restamped.zebra].every((at) => Date.parse(at!) === Date.parse(stamped.zebra!) + 60_000)).toBe(true);
      expectSuccess(await request('POST', '/taxonomies/shelf/terms/reorder', { terms: [{ id: zebra.id, parentId: apple.id, sortOrder: 0 }, { id: mango.id, parentId: zebra.id, sortOrder: 0 }] }, writer));
      expect(shape(await tree('shelf'))).toEqual([{ apple: [{ zebra: ['mango'] }] }]);
      // A change of parent by PUT puts the term last among its new siblings.
      const pear = await add('pear', apple.id);
      expectSuccess(await request('PUT', '/taxonomies/shelf/terms/mango', { parentId: apple.id }));
      expect(shape(await tree('shelf'))).toEqual([{ apple: ['zebra', 'pear', 'mango'] }]);
      expect(pear.sortOrder).toBe(1);
    });

    it('refuses a reorder that would make a cycle, a parent in a flat taxonomy, or unknown terms (400), and moves nothing', async () => {
      const [apple] = await tree('shelf');
      const zebra = apple!.children[0]!;
      const ids = (await tree('shelf')).flatMap(function all(node: Node): string[] {
        return [node.id, ...node.children.flatMap(all)];
      });
      expect(ids).toHaveLength(4);
      const before = shape(await tree('shelf'));
      const cycle = await request('POST', '/taxonomies/shelf/terms/reorder', { terms: [{ id: apple!.id, parentId: zebra.id, sortOrder: 0 }] });
      expect(expectError(cycle, 400, 'VALIDATION_ERROR').details.issues[0]).toEqual({ path: 'terms.0.parentId', message: 'A term cannot sit under itself or one of its own descendants' });
      expect(issuePaths(await request('POST', '/taxonomies/shelf/terms/reorder', { terms: [{ id: 'nope', parentId: null, sortOrder: 0 }] }))).toEqual(['terms.0.id']);
      expect(issuePaths(await request('POST', '/taxonomies/shelf/terms/reorder', { terms: [] }))).toEqual(['terms']);
      expect(issuePaths(await request('POST', '/taxonomies/shelf/terms/reorder', { terms: [{ id: ids[0], parentId: null, sortOrder: -1 }] }))).toEqual(['terms.0.sortOrder']);
      const tag = expectCreated(await request('POST', '/taxonomies/tag/terms', { slug: 'flat-one', label: 'Flat one' })).item;
      const other = expectCreated(await request('POST', '/taxonomies/tag/terms', { slug: 'flat-two', label: 'Flat two' })).item;
      expect(issuePaths(await request('POST', '/taxonomies/tag/terms/reorder', { terms: [{ id: tag.id, parentId: other.id, sortOrder: 0 }] }))).toEqual(['terms.0.parentId']);
      expect(shape(await tree('shelf'))).toEqual(before);
      expectError(await request('GET', '/taxonomies/nope/tree'), 404, 'NOT_FOUND');
      expectError(await request('POST', '/taxonomies/nope/terms/reorder', { terms: [{ id: ids[0], parentId: null, sortOrder: 0 }] }), 404, 'NOT_FOUND');
    });

    it('needs a token (401), content:read for the tree and content:write to reorder (403)', async () => {
      const [apple] = await tree('shelf');
      const body = { terms: [{ id: apple!.id, parentId: null, sortOrder: 0 }] };
      expectError(await request('GET', '/taxonomies/shelf/tree', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('POST', '/taxonomies/shelf/terms/reorder', body, null), 401, 'UNAUTHORIZED');
      expect(expectError(await request('POST', '/taxonomies/shelf/terms/reorder', body, reader), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:write' });
      const mediaOnly = (await t.userWithToken(50, ['media:read'])).token;
      expect(expectError(await request('GET', '/taxonomies/shelf/tree', undefined, mediaOnly), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:read' });
    });
  });

  describe('entry terms', () => {
    it("replaces and reads an entry's terms, and counts the term's entries", async () => {
      const entry = await createEntry(t, 'posts', { data: { title: 'Tagged' } });
      const one = expectCreated(await request('POST', '/taxonomies/tag/terms', { slug: 'one', label: 'One' })).item;
      const two = expectCreated(await request('POST', '/taxonomies/tag/terms', { slug: 'two', label: 'Two' })).item;
      const set = expectSuccess(await request('POST', `/content/posts/${entry.id}/terms/tag`, { termIds: [two.id, one.id, two.id] }, writer));
      expect(set.taxonomy).toBe('tag');
      expect(set.items.map((term: { slug: string; count: number }) => [term.slug, term.count])).toEqual([['one', 1], ['two', 1]]);
      expect(expectSuccess(await request('GET', `/content/posts/${entry.id}/terms/tag`))).toEqual(set);
      expect(expectSuccess(await request('POST', `/content/posts/${entry.id}/terms/tag`, { termIds: [one.id] }, writer)).items.map((term: { slug: string }) => term.slug)).toEqual(['one']);
      expect(expectSuccess(await request('GET', '/taxonomies/tag/terms?limit=100')).items.find((term: { id: string }) => term.id === two.id).count).toBe(0);
      expectSuccess(await request('DELETE', `/content/posts/${entry.id}`));
      expectSuccess(await request('DELETE', `/content/posts/${entry.id}/permanent`));
      expect(expectSuccess(await request('GET', '/taxonomies/tag/terms?limit=100')).items.find((term: { id: string }) => term.id === one.id).count).toBe(0);
    });

    it('refuses an unknown taxonomy (404), one not linked to the collection or a term of another taxonomy (400), and changes nothing', async () => {
      const entry = await createEntry(t, 'pages', { data: { title: 'Page' } });
      const tagTerm = expectCreated(await request('POST', '/taxonomies/tag/terms', { slug: 'page-tag', label: 'Page tag' })).item;
      expectSuccess(await request('POST', `/content/pages/${entry.id}/terms/tag`, { termIds: [tagTerm.id] }));
      const category = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'only-posts', label: 'Only posts' })).item;
      expectError(await request('POST', `/content/pages/${entry.id}/terms/nope`, { termIds: [] }), 404, 'NOT_FOUND');
      expect(issuePaths(await request('POST', `/content/pages/${entry.id}/terms/category`, { termIds: [category.id] }))).toEqual(['taxonomy']);
      expect(issuePaths(await request('POST', `/content/pages/${entry.id}/terms/tag`, { termIds: [tagTerm.id, category.id] }))).toEqual(['termIds.1']);
      expect(expectSuccess(await request('GET', `/content/pages/${entry.id}/terms/tag`)).items.map((term: { id: string }) => term.id)).toEqual([tagTerm.id]);
      expectError(await request('POST', `/content/pages/NOPE/terms/tag`, { termIds: [] }), 404, 'NOT_FOUND');
      expectError(await request('POST', `/content/pages/${entry.id}/terms/tag`, { termIds: [] }, reader), 403, 'FORBIDDEN');
      expectError(await request('GET', `/content/pages/${entry.id}/terms/tag`, undefined, null), 401, 'UNAUTHORIZED');
    });

    it("shows a reader a published entry's terms, and a draft's as not found", async () => {
      const draft = await createEntry(t, 'posts', { data: { title: 'Draft post' } });
      expectError(await request('GET', `/content/posts/${draft.id}/terms/tag`, undefined, reader), 404, 'NOT_FOUND');
      const live = await createEntry(t, 'posts', { data: { title: 'Live post' }, status: 'published' });
      expect(expectSuccess(await request('GET', `/content/posts/${live.id}/terms/tag`, undefined, reader)).items).toEqual([]);
    });
  });

  describe('MCP tools', () => {
    async function call(name: string, args: unknown, token = t.adminToken) {
      const response = await t.request('POST', `${api}/mcp`, { token, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
      expect(response.status).toBe(200);
      return response.body;
    }

    it('lists taxonomies and terms and creates a term, with the REST data', async () => {
      const listed = (await call('taxonomy_list', {})).result;
      expect(listed.structuredContent).toEqual(expectSuccess(await request('GET', '/taxonomies')));
      const created = (await call('taxonomy_create_term', { taxonomy: 'tag', slug: 'from-mcp', label: 'From MCP' })).result.structuredContent.item;
      expect(created).toMatchObject({ slug: 'from-mcp', label: 'From MCP', parentId: null });
      const page = (await call('taxonomy_list_terms', { taxonomy: 'tag', limit: 100 })).result.structuredContent;
      expect(page).toEqual(expectSuccess(await request('GET', '/taxonomies/tag/terms?limit=100')));
      expect((await call('taxonomy_list_terms', { taxonomy: 'tag', limit: 0 })).result.isError).toBe(true);
      expect((await call('taxonomy_create_term', { taxonomy: 'tag', slug: 'from-mcp', label: 'Again' })).result.content[0].text).toMatch(/^DUPLICATE_SLUG: /);
      expect((await call('taxonomy_create_term', { taxonomy: 'tag', slug: 'x', label: 'X' }, reader)).error).toMatchObject({ code: -32600, message: 'Insufficient scope: requires content:write' });
    });
  });
});
