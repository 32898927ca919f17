import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/** `GET /content/:collection?term=taxonomy:slug`: the page every blog has, "all posts in category News". */
describe('listing content by term', () => {
  let t: TestApp;
  let reader: string;
  const terms: Record<string, string> = {};
  const posts: Record<string, string> = {};
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const titles = async (query: string, token: string | null = t.adminToken) =>
    (expectSuccess(await request('GET', `/content/posts?${query}`, undefined, token)).items as { data: { title: string } }[]).map((item) => item.data.title);
  const pageByPage = async (query: string) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = expectSuccess(await request('GET', `/content/posts?${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      seen.push(...page.items.map((item: { data: { title: string } }) => item.data.title));
      cursor = page.nextCursor;
    } while (cursor);
    return seen;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }]);
    reader = (await t.userWithToken(10, ['content:read'])).token;
    expectCreated(await request('POST', '/taxonomies', { name: 'category', label: 'Categories', hierarchical: true, collections: ['posts'] }));
    expectCreated(await request('POST', '/taxonomies', { name: 'tag', label: 'Tags', collections: ['posts'] }));
    expectCreated(await request('POST', '/taxonomies', { name: 'section', label: 'Sections', collections: ['pages'] }));
    for (const [taxonomy, slug, parent] of [['category', 'news'], ['category', 'local', 'news'], ['category', 'street', 'local'], ['category', 'sport'], ['tag', 'news'], ['section', 'about']] as const) {
      const body = { slug, label: slug, parentId: parent ? terms[`category:${parent}`] : undefined };
      terms[`${taxonomy}:${slug}`] = expectCreated(await request('POST', `/taxonomies/${taxonomy}/terms`, body)).item.id;
    }
    // Oldest first, so the default order (newest first) lists them backwards.
    const filed: [string, string[], string?][] = [
      ['World', ['category:news'], 'published'],
      ['Town hall', ['category:local'], 'published'],
      ['Potholes', ['category:street', 'tag:news'], 'published'],
      ['Match', ['category:sport', 'tag:news'], 'published'],
      ['Draft news', ['category:news']],
    ];
    for (const [title, held, status] of filed) {
      posts[title] = (await createEntry(t, 'posts', { data: { title }, status })).id;
      for (const taxonomy of ['category', 'tag']) {
        const termIds = held.filter((key) => key.startsWith(`${taxonomy}:`)).map((key) => terms[key]);
        if (termIds.length > 0) expectSuccess(await request('POST', `/content/posts/${posts[title]}/terms/${taxonomy}`, { termIds }));
      }
    }
  });
  afterAll(() => t.close());

  it('lists the entries of a term and, in a hierarchical taxonomy, of its descendants', async () => {
    expect(await titles('term=category:news')).toEqual(['Draft news', 'Potholes', 'Town hall', 'World']);
    expect(await titles('term=category:local')).toEqual(['Potholes', 'Town hall']);
    expect(await titles('term=category:street&orderBy=title&order=asc')).toEqual(['Potholes']);
    expect(await titles('term=tag:news')).toEqual(['Match', 'Potholes']);
    expect(await titles('term=category:news&status=draft')).toEqual(['Draft news']);
  });

  it('pages through a filtered list with the cursor', async () => {
    expect(await pageByPage('term=category:news&orderBy=title&order=asc')).toEqual(['Draft news', 'Potholes', 'Town hall', 'World']);
  });

  it('gives the same answers when many entries hold the term (the list walks its sort index)', async () => {
    // Past 500 holders the list checks entries row by row instead of reading them by id; rows for
    // entries that do not exist are enough to cross that line, and must not show up.
    const now = new Date().toISOString();
    const [collection, taxonomy] = await Promise.all([
      t.db.kysely.selectFrom('collections').select('id').where('slug', '=', 'posts').executeTakeFirstOrThrow(),
      t.db.kysely.selectFrom('taxonomies').select('id').where('name', '=', 'category').executeTakeFirstOrThrow(),
    ]);
    const phantom = Array.from({ length: 501 }, (_, index) => ({ term_id: terms['category:street']!, taxonomy_id: taxonomy.id, collection_id: collection.id, entry_id: `PHANTOM${index}`, created_at: now }));
    await t.db.kysely.insertInto('entry_terms').values(phantom).execute();
    try {
      expect(await titles('term=category:news')).toEqual(['Draft news', 'Potholes', 'Town hall', 'World']);
      expect(await titles('term=category:street')).toEqual(['Potholes']);
      expect(await pageByPage('term=category:news&orderBy=title&order=asc')).toEqual(['Draft news', 'Potholes', 'Town hall', 'World']);
    } finally {
      await t.db.kysely.deleteFrom('entry_terms').where('entry_id', 'like', 'PHANTOM%').execute();
    }
  });

  it('shows readers and, with publicRead on, the public only published entries of the term', async () => {
    expect(await titles('term=category:news', reader)).toEqual(['Potholes', 'Town hall', 'World']);
    expectError(await request('GET', '/content/posts?term=category:news', undefined, null), 401, 'UNAUTHORIZED');
    expectSuccess(await request('POST', '/settings', { publicRead: true }));
    try {
      expect(await titles('term=category:news', null)).toEqual(['Potholes', 'Town hall', 'World']);
      expect(expectSuccess(await request('GET', `/content/posts/${posts['Potholes']}/terms/category`, undefined, null)).items.map((term: { slug: string }) => term.slug)).toEqual(['street']);
      expect(expectSuccess(await request('GET', '/taxonomies/category/terms', undefined, null)).items).toHaveLength(4);
      expectError(await request('GET', `/content/posts/${posts['Draft news']}/terms/category`, undefined, null), 404, 'NOT_FOUND');
      expectError(await request('GET', '/content/posts?term=category:news&status=draft', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('POST', '/taxonomies/tag/terms', { slug: 'x', label: 'X' }, null), 401, 'UNAUTHORIZED');
    } finally {
      expectSuccess(await request('POST', '/settings', { publicRead: false }));
    }
    expectError(await request('GET', '/taxonomies/category/terms', undefined, null), 401, 'UNAUTHORIZED');
  });

  it('refuses a malformed filter, an unknown taxonomy or term, and a taxonomy of another collection (400 naming term)', async () => {
    for (const query of ['term=news', 'term=category:', 'term=Category:news', 'term=nope:news', 'term=category:nope', 'term=section:about']) {
      expect(issuePaths(await request('GET', `/content/posts?${query}`)), query).toEqual(['term']);
    }
  });

  it('filters content_list over MCP the same way', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_list', arguments: { collection: 'posts', term: 'category:local' } } };
    const response = await t.request('POST', `${api}/mcp`, { token: t.adminToken, headers: { accept: 'application/json, text/event-stream' }, body });
    expect(response.body.result.structuredContent.items.map((item: { data: { title: string } }) => item.data.title)).toEqual(['Potholes', 'Town hall']);
  });
});
