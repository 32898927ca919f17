import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';

/** `GET /search` (issue 11): ranking, snippets, the query language, access and bad input, on both engines. */
describe('search', () => {
  let t: TestApp;
  let subscriber: string;
  let contributor: string;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });

  /** A bare search response, asserting its shape. */
  function expectResults(response: ApiResponse): { results: { collection: string; id: string; slug: string; title: string; snippet: string; score: number }[]; nextCursor?: string } {
    if (response.status !== 200 || !Array.isArray(response.body?.results)) throw new Error(`expected search results, got ${response.status} ${JSON.stringify(response.body)}`);
    expect(response.body.success).toBeUndefined();
    return response.body;
  }
  const search = async (query: string, token: string | null = t.adminToken) => expectResults(await request('GET', `/search?${query}`, undefined, token));
  const titles = async (q: string, extra = '', token: string | null = t.adminToken) => (await search(`q=${encodeURIComponent(q)}${extra}`, token)).results.map((result) => result.title);

  beforeAll(async () => {
    t = await createTestApp();
    subscriber = (await t.userWithToken(roles.subscriber, ['content:read'])).token;
    contributor = (await t.userWithToken(roles.contributor, ['content:read', 'content:write'])).token;
    await createCollection(
      t,
      'articles',
      [
        { slug: 'title', type: 'string', searchable: true },
        { slug: 'body', type: 'portableText', searchable: true },
        { slug: 'kind', type: 'select', validation: { options: ['review', 'essay'] }, searchable: true },
        { slug: 'secret', type: 'string' },
      ],
      { supports: ['drafts', 'revisions', 'search'] },
    );
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string', searchable: true }]);
    const published = { status: 'published' };
    await createEntry(t, 'articles', { data: { title: 'Gardening for beginners', body: 'Soil, water and patience. Tomatoes love the sun.', kind: 'essay' }, ...published });
    await createEntry(t, 'articles', { data: { title: 'Kitchen notes', body: 'Gardening is mentioned here once, among recipes for tomatoes.', kind: 'review' }, ...published });
    await createEntry(t, 'articles', { data: { title: 'Café culture in Zürich', body: 'Running between cafés <b>all</b> day & night "quoted".', secret: 'hidden' }, ...published });
    await createEntry(t, 'articles', { data: { title: 'Unpublished gardening plans', body: 'Draft only.' } });
    await createEntry(t, 'notes', { data: { title: 'Gardening note' }, ...published });
  });
  afterAll(() => t.close());

  it('ranks a title match above a body match, with a score that says so', async () => {
    const { results } = await search('q=gardening');
    expect(results.map((result) => result.title)).toEqual(['Gardening for beginners', 'Kitchen notes']);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    expect(results[0]).toMatchObject({ collection: 'articles', slug: 'gardening-for-beginners' });
  });

  it('makes snippets from the best-matching field, terms in <mark> and the rest escaped', async () => {
    const [kitchen] = (await search('q=recipes')).results;
    expect(kitchen!.snippet).toContain('<mark>recipes</mark>');
    const [cafe] = (await search('q=quoted')).results;
    expect(cafe!.snippet).toContain('&lt;b&gt;all&lt;/b&gt; day &amp; night &quot;<mark>quoted</mark>');
    expect(cafe!.snippet).not.toMatch(/<(?!\/?mark>)/);
    // Marked as the index matched them: by stem, case and diacritics folded; from the title when only it matches.
    expect((await search('q=runs')).results[0]!.snippet).toBe('<mark>Running</mark> between cafés &lt;b&gt;all&lt;/b&gt; day &amp; night &quot;quoted&quot;.');
    expect((await search('q=ZURICH')).results[0]!.snippet).toBe('Café culture in <mark>Zürich</mark>');
  });

  it('folds case and diacritics, and stems English', async () => {
    expect(await titles('ZURICH cafe')).toEqual(['Café culture in Zürich']);
    expect(await titles('runs')).toEqual(['Café culture in Zürich']);
    expect(await titles('tomato')).toHaveLength(2);
  });

  it('understands phrases, prefixes, exclusions and OR', async () => {
    expect(await titles('"water and patience"')).toEqual(['Gardening for beginners']);
    expect(await titles('"patience and water"')).toEqual([]);
    expect(await titles('garden*')).toEqual(['Gardening for beginners', 'Kitchen notes']);
    expect(await titles('gardening -recipes')).toEqual(['Gardening for beginners']);
    expect((await titles('recipes OR zurich')).sort()).toEqual(['Café culture in Zürich', 'Kitchen notes']);
    expect(await titles('tomatoes sun')).toEqual(['Gardening for beginners']);
  });

  it('indexes only searchable fields, of collections with search', async () => {
    expect(await titles('hidden')).toEqual([]);
    expect(await titles('essay')).toEqual(['Gardening for beginners']);
    expect((await search('q=gardening&collections=articles')).results).toHaveLength(2);
    expect(issuePaths(await request('GET', '/search?q=gardening&collections=notes'))).toEqual(['collections']);
  });

  it('pages by score with a cursor, every result once', async () => {
    for (let index = 0; index < 7; index++) await createEntry(t, 'articles', { data: { title: `Pager ${index}`, body: 'paging paging' }, status: 'published' });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await search(`q=paging&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.results.length).toBeLessThanOrEqual(3);
      seen.push(...page.results.map((result) => result.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(Array.from({ length: 7 }, (_, index) => `Pager ${index}`));
  });

  it('searches working values with status=draft for Contributors and up, and refuses it below', async () => {
    expect(await titles('unpublished')).toEqual([]);
    expect(await titles('unpublished', '&status=draft', contributor)).toEqual(['Unpublished gardening plans']);
    expect(expectError(await request('GET', '/search?q=x&status=draft', undefined, subscriber), 403, 'FORBIDDEN').details).toEqual({ requiredRole: 20 });
    expect(await titles('gardening', '', subscriber)).toEqual(['Gardening for beginners', 'Kitchen notes']);
  });

  it('answers bad input with 400 naming it', async () => {
    expect(issuePaths(await request('GET', '/search'))).toEqual(['q']);
    expect(issuePaths(await request('GET', '/search?q=%20%20'))).toEqual(['q']);
    for (const limit of ['0', '51', 'x']) expect(issuePaths(await request('GET', `/search?q=a&limit=${limit}`))).toEqual(['limit']);
    for (const cursor of ['nope', Buffer.from('["x","y"]').toString('base64url'), Buffer.from('[1]').toString('base64url')]) {
      expect(issuePaths(await request('GET', `/search?q=a&cursor=${cursor}`))).toEqual(['cursor']);
    }
    const unknown = expectError(await request('GET', '/search?q=a&collections=articles,nope'), 400, 'VALIDATION_ERROR');
    expect(unknown.details.issues).toEqual([{ path: 'collections', message: 'No collection nope' }]);
    expect(expectError(await request('GET', '/search?q=a&collections=notes'), 400, 'VALIDATION_ERROR').message).toContain('does not support search');
    expect(issuePaths(await request('GET', '/search?q=a&status=trashed'))).toEqual(['status']);
    expect(issuePaths(await request('GET', '/search?q=a&locale=not_a_locale!'))).toEqual(['locale']);
  });

  it('needs a token (401) and content:read (403); the public searches published content while publicRead is on', async () => {
    expectError(await request('GET', '/search?q=gardening', undefined, null), 401, 'UNAUTHORIZED');
    const media = (await t.userWithToken(roles.editor, ['media:read'])).token;
    expect(expectError(await request('GET', '/search?q=gardening', undefined, media), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:read' });
    expectSuccess(await request('POST', '/settings', { publicRead: true }));
    try {
      expect(await titles('gardening', '', null)).toEqual(['Gardening for beginners', 'Kitchen notes']);
      expectError(await request('GET', '/search?q=gardening&status=draft', undefined, null), 401, 'UNAUTHORIZED');
    } finally {
      expectSuccess(await request('POST', '/settings', { publicRead: false }));
    }
  });

  it('is described in the OpenAPI document as a bare response', async () => {
    const document = (await request('GET', '/openapi.json', undefined, null)).body;
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/_cms/api/search', '/_cms/api/search/suggest', '/_cms/api/search/rebuild', '/_cms/api/search/stats']));
  });

  it('keeps collection slugs apart from the search path (a collection named search is reserved)', async () => {
    expectError(await request('POST', '/schema/collections', { slug: 'search', label: 'Search' }), 400, 'RESERVED_SLUG');
    expectCreated(await request('POST', '/schema/collections', { slug: 'searchable_things', label: 'Things', supports: ['search'] }));
  });
});
