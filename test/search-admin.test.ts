import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { searchEngine } from '../src/db/search-engine.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/** Suggestions, the rebuild, the counts and the MCP search tool (issue 11). */
describe('search suggestions, rebuild, stats and the MCP tool', () => {
  let t: TestApp;
  let reader: string;
  let editor: string;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const suggested = async (q: string, token: string | null = t.adminToken) =>
    (expectSuccess(await request('GET', `/search/suggest?q=${encodeURIComponent(q)}`, undefined, token)).items as { title: string }[]).map((item) => item.title);

  beforeAll(async () => {
    t = await createTestApp();
    reader = (await t.userWithToken(roles.subscriber, ['content:read'])).token;
    editor = (await t.userWithToken(roles.editor, ['content:read', 'content:write', 'schema:read'])).token;
    await createCollection(t, 'places', [{ slug: 'title', type: 'string', searchable: true }, { slug: 'body', type: 'text', searchable: true }], { supports: ['drafts', 'search'] });
    await createCollection(t, 'plain', [{ slug: 'title', type: 'string', searchable: true }]);
    for (const title of ['New York', 'A New Year', 'Newspaper archive', 'Zürich old town', 'York minster']) {
      await createEntry(t, 'places', { data: { title, body: `About ${title}` }, status: 'published' });
    }
    await createEntry(t, 'places', { data: { title: 'New draft' } });
  });
  afterAll(() => t.close());

  it('suggests published titles that start with the text, or with a word that does', async () => {
    expect(await suggested('new')).toEqual(['A New Year', 'New York', 'Newspaper archive']);
    expect(await suggested('new ')).toEqual(['A New Year', 'New York']);
    expect(await suggested('new y')).toEqual(['A New Year', 'New York']);
    expect(await suggested('york')).toEqual(['New York', 'York minster']);
    expect(await suggested('ZURI')).toEqual(['Zürich old town']);
    expect(await suggested('new d')).toEqual([]);
    expect(await suggested('???')).toEqual([]);
    expect(await suggested('new', reader)).toHaveLength(3);
    const [first] = expectSuccess(await request('GET', '/search/suggest?q=york%20min')).items;
    expect(first).toMatchObject({ collection: 'places', slug: 'york-minster', title: 'York minster' });
    expect(expectSuccess(await request('GET', '/search/suggest?q=new&limit=1')).items).toHaveLength(1);
  });

  it('answers bad suggest input with 400, and needs a token and content:read', async () => {
    expect(issuePaths(await request('GET', '/search/suggest'))).toEqual(['q']);
    expect(issuePaths(await request('GET', '/search/suggest?q=a&limit=21'))).toEqual(['limit']);
    expectError(await request('GET', '/search/suggest?q=a', undefined, null), 401, 'UNAUTHORIZED');
    const media = (await t.userWithToken(roles.admin, ['media:read'])).token;
    expect(expectError(await request('GET', '/search/suggest?q=a', undefined, media), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:read' });
  });

  it('rebuilds a damaged index in batches, all of it or the named collections', async () => {
    const entries = Array.from({ length: 620 }, (_, index) => ({ title: `Bulk ${index}` }));
    for (const data of entries.slice(0, 20)) await createEntry(t, 'places', { data, status: 'published' });
    // Past one batch (500): rows written behind the index's back, as an import or a restore would.
    const { table_name: table, id: collectionId } = await t.db.kysely.selectFrom('collections').select(['table_name', 'id']).where('slug', '=', 'places').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const rows = entries.slice(20).map((data, index) => ({
      _id: `01ZZ${String(index).padStart(22, '0')}`,
      _slug: `bulk-extra-${index}`,
      _locale: 'en',
      _group: `01ZZ${String(index).padStart(22, '0')}`,
      _status: 'published',
      _version: 1,
      _created_at: now,
      _updated_at: now,
      _published_at: now,
      title: data.title,
    }));
    for (let start = 0; start < rows.length; start += 100) await t.db.kysely.insertInto(table as never).values(rows.slice(start, start + 100) as never).execute();
    // And a document whose entry is gone.
    await searchEngine(t.db).insertDocuments(t.db, [{ entryId: '01ZZZZZZZZZZZZZZZZZZZZZZZZ', variant: 'both', collectionId, collection: 'places', locale: 'en', slug: 'gone', title: 'Ghost', titleText: 'Ghost', bodyText: '' }]);
    expect(await suggested('ghost')).toEqual([]);
    expect((await request('GET', '/search?q=ghost')).body.results).toHaveLength(1);
    const before = expectSuccess(await request('GET', '/search/stats')).items.find((item: { collection: string }) => item.collection === 'places');
    expect(before.entries).toBeLessThan(626);

    const rebuilt = expectSuccess(await request('POST', '/search/rebuild', { collections: ['places'] }));
    expect(rebuilt.items).toEqual([{ collection: 'places', entries: 626, documents: 626 }]);
    expect((await request('GET', '/search?q=ghost')).body.results).toEqual([]);
    expect(expectSuccess(await request('GET', '/search/stats')).items).toEqual([{ collection: 'places', entries: 626, documents: 626 }]);
    const found = await request('GET', '/search?q=bulk&limit=50');
    expect(found.body.results).toHaveLength(50);
    expect(await suggested('bulk 61')).toEqual(['Bulk 61', 'Bulk 610', 'Bulk 611', 'Bulk 612', 'Bulk 613', 'Bulk 614', 'Bulk 615', 'Bulk 616', 'Bulk 617', 'Bulk 618']);

    await t.db.kysely.deleteFrom('search_documents').execute();
    expect(expectSuccess(await request('POST', '/search/rebuild')).items).toEqual([{ collection: 'places', entries: 626, documents: 626 }]);
    // An empty body with no Content-Type, as action endpoints take (DECISIONS §1).
    expect((await t.request('POST', `${api}/search/rebuild`, { token: t.adminToken })).status).toBe(200);
  });

  it('refuses a rebuild to non-admins (403 requiredScope admin), and bad collections (400)', async () => {
    expectError(await request('POST', '/search/rebuild', undefined, null), 401, 'UNAUTHORIZED');
    expect(expectError(await request('POST', '/search/rebuild', undefined, editor), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'admin' });
    expect(expectError(await request('GET', '/search/stats', undefined, editor), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'admin' });
    expectError(await request('GET', '/search/stats', undefined, null), 401, 'UNAUTHORIZED');
    expect(issuePaths(await request('POST', '/search/rebuild', { collections: ['nope'] }))).toEqual(['collections']);
    expect(expectError(await request('POST', '/search/rebuild', { collections: ['plain'] }), 400, 'VALIDATION_ERROR').message).toContain('does not support search');
    expect(issuePaths(await request('POST', '/search/rebuild', { collections: [], extra: 1 }))).toEqual(['collections', 'extra']);
  });

  it('searches over MCP with the search tool: the REST results, published only', async () => {
    const call = async (args: Record<string, unknown>, token = reader) => {
      const response = await t.request('POST', `${api}/mcp`, {
        token,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: args } },
      });
      return response.body.result ?? response.body.error;
    };
    const result = await call({ query: 'york', collections: ['places'], limit: 5 });
    const rest = (await request('GET', '/search?q=york&collections=places&limit=5', undefined, reader)).body;
    expect(result.structuredContent).toEqual(rest);
    expect(JSON.parse(result.content[0].text)).toEqual(rest);
    expect((await call({ query: 'draft' })).structuredContent.results).toEqual([]);
    expect((await call({ query: 'york', limit: 51 })).isError).toBe(true);
    expect((await call({ query: '' })).isError).toBe(true);
    expect((await call({ query: 'york', collections: ['plain'] })).content[0].text).toMatch(/^VALIDATION_ERROR: .*does not support search/);
    const media = (await t.userWithToken(roles.admin, ['media:read'])).token;
    expect(await call({ query: 'york' }, media)).toEqual({ code: -32600, message: 'Insufficient scope: requires content:read' });
  });
});
