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

  /** `count` published rows written straight into the table, as an import or a restore would, titled `Bulk <n>` from `from`. */
  async function insertBehindIndex(count: number, from: number): Promise<{ collectionId: string }> {
    const { table_name: table, id: collectionId } = await t.db.kysely.selectFrom('collections').select(['table_name', 'id']).where('slug', '=', 'places').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const rows = Array.from({ length: count }, (_, offset) => {
      const id = `01ZZ${String(from + offset).padStart(22, '0')}`;
      return { _id: id, _slug: `bulk-extra-${from + offset}`, _locale: 'en', _group: id, _status: 'published', _version: 1, _created_at: now, _updated_at: now, _published_at: now, title: `Bulk ${from + offset}` };
    });
    for (let start = 0; start < rows.length; start += 100) await t.db.kysely.insertInto(table as never).values(rows.slice(start, start + 100) as never).execute();
    return { collectionId };
  }

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
    for (let index = 0; index < 20; index++) await createEntry(t, 'places', { data: { title: `Bulk ${index}` }, status: 'published' });
    // Rows written behind the index's back.
    const { collectionId } = await insertBehindIndex(600, 20);
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

  it('streams a progress line per batch of a rebuild, then its result', async () => {
    await insertBehindIndex(1000, 620);
    const response = await request('POST', '/search/rebuild', { collections: ['places'], stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = response.bytes.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { type: 'progress', collection: 'places', entries: 1000, documents: 1000, total: 1626 },
      { type: 'progress', collection: 'places', entries: 1626, documents: 1626, total: 1626 },
      { type: 'result', items: [{ collection: 'places', entries: 1626, documents: 1626 }] },
    ]);
    expect(expectSuccess(await request('GET', '/search/stats')).items).toEqual([{ collection: 'places', entries: 1626, documents: 1626 }]);
    expect(issuePaths(await request('POST', '/search/rebuild', { stream: 'yes' }))).toEqual(['stream']);
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
