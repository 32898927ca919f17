import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

const paragraph = (key: string, text: string) => ({ _type: 'block', _key: key, style: 'normal', markDefs: [], children: [{ _type: 'span', _key: `${key}s`, text, marks: [] }] });

/** Sections, the reusable blocks: writes, Markdown, the list's filters and paging, and who may do what. */
describe('sections', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const slugsOf = (page: { items: { slug: string }[] }) => page.items.map((item) => item.slug);

  beforeAll(async () => {
    t = await createTestApp();
    writer = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
    reader = (await t.userWithToken(10, ['content:read'])).token;
  });
  afterAll(() => t.close());

  it('creates, reads, changes, renames and deletes a section', async () => {
    const created = expectCreated(await request('POST', '/sections', { slug: 'call-to-action', title: 'Call to action', content: [paragraph('a1', 'Sign up today')] }, writer)).item;
    expect(created).toMatchObject({ slug: 'call-to-action', title: 'Call to action', keywords: [], source: 'user', content: [paragraph('a1', 'Sign up today')] });
    expect(created.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(created.createdAt).toBe(created.updatedAt);
    expect(expectSuccess(await request('GET', '/sections/call-to-action', undefined, reader)).item).toEqual(created);

    t.clock.advance(1000);
    const changed = expectSuccess(await request('PUT', '/sections/call-to-action', { title: 'Join us', keywords: ['signup', 'footer'], source: 'theme' }, writer)).item;
    expect(changed).toMatchObject({ id: created.id, slug: 'call-to-action', title: 'Join us', keywords: ['signup', 'footer'], source: 'theme', content: created.content });
    expect(changed.updatedAt > created.updatedAt).toBe(true);
    const renamed = expectSuccess(await request('PUT', '/sections/call-to-action', { slug: 'join-us' }, writer)).item;
    expect(renamed).toMatchObject({ id: created.id, slug: 'join-us', title: 'Join us' });
    expectError(await request('GET', '/sections/call-to-action'), 404, 'NOT_FOUND');
    expect(expectSuccess(await request('GET', '/sections/join-us')).item).toEqual(renamed);

    expect(expectSuccess(await request('DELETE', '/sections/join-us', undefined, writer))).toEqual({ success: true });
    expectError(await request('GET', '/sections/join-us'), 404, 'NOT_FOUND');
  });

  it('takes Markdown for content, as content fields do, and completes Portable Text with keys', async () => {
    const created = expectCreated(await request('POST', '/sections', { slug: 'markdown', title: 'Markdown', content: '# Welcome\n\nSome *stressed* words.' })).item;
    expect(created.content).toHaveLength(2);
    expect(created.content[0]).toMatchObject({ _type: 'block', style: 'h1', children: [{ _type: 'span', text: 'Welcome' }] });
    expect(created.content[1].children.map((span: { text: string; marks: string[] }) => [span.text, span.marks])).toEqual([['Some ', []], ['stressed', ['em']], [' words.', []]]);
    const changed = expectSuccess(await request('PUT', '/sections/markdown', { content: '- one\n- two' })).item;
    expect(changed.content.map((block: { listItem: string }) => block.listItem)).toEqual(['bullet', 'bullet']);
    const keyless = expectCreated(await request('POST', '/sections', { slug: 'keyless', title: 'Keyless', content: [{ _type: 'block', children: [{ _type: 'span', text: 'Hi' }] }] })).item;
    expect(keyless.content[0]).toMatchObject({ _type: 'block', style: 'normal', markDefs: [], children: [{ _type: 'span', text: 'Hi', marks: [] }] });
    expect(typeof keyless.content[0]._key).toBe('string');
    expect(typeof keyless.content[0].children[0]._key).toBe('string');
  });

  describe('the list', () => {
    beforeAll(async () => {
      const sections = [
        { slug: 'list-hero', title: 'Big HERO banner', keywords: ['Banner'], source: 'theme' },
        { slug: 'list-pricing', title: 'Pricing table', keywords: ['plans', 'Money'], source: 'theme' },
        { slug: 'list-promo', title: '50% off', keywords: ['sale_2026'] },
        { slug: 'list-quote', title: 'Quote', keywords: ['a', 'b'], source: 'import' },
      ];
      for (const section of sections) expectCreated(await request('POST', '/sections', { ...section, content: [] }));
    });
    const list = async (query: string) => expectSuccess(await request('GET', `/sections?${query}`, undefined, reader));

    it('pages sections by slug with a cursor', async () => {
      const first = await list('search=list-&limit=3');
      expect(slugsOf(first)).toEqual(['list-hero', 'list-pricing', 'list-promo']);
      const second = await list(`search=list-&limit=3&cursor=${first.nextCursor}`);
      expect(slugsOf(second)).toEqual(['list-quote']);
      expect(second.nextCursor).toBeUndefined();
      const all = await list('');
      expect(slugsOf(all)).toEqual([...slugsOf(all)].sort());
      expect(all.items[0]).toEqual(expect.objectContaining({ id: expect.any(String), slug: expect.any(String), title: expect.any(String), keywords: expect.any(Array), content: expect.any(Array), source: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) }));
    });

    it('filters by source, exactly', async () => {
      expect(slugsOf(await list('source=theme&search=list-'))).toEqual(['list-hero', 'list-pricing']);
      expect(slugsOf(await list('source=import'))).toEqual(['list-quote']);
      expect(slugsOf(await list('source=user&search=list-'))).toEqual(['list-promo']);
    });

    it('searches title, slug and keywords without regard to case', async () => {
      expect(slugsOf(await list('search=hero'))).toEqual(['list-hero']);
      expect(slugsOf(await list('search=PRICING'))).toEqual(['list-pricing']);
      expect(slugsOf(await list('search=money'))).toEqual(['list-pricing']);
      expect(slugsOf(await list('search=banner&source=import'))).toEqual([]);
    });

    it('matches % and _ literally, and never the punctuation that stores the keywords', async () => {
      expect(slugsOf(await list(`search=${encodeURIComponent('50%')}`))).toEqual(['list-promo']);
      expect(slugsOf(await list(`search=${encodeURIComponent('%off')}`))).toEqual([]);
      expect(slugsOf(await list('search=sale_'))).toEqual(['list-promo']);
      expect(slugsOf(await list('search=sale__'))).toEqual([]);
      // The keywords ['a', 'b'] are kept as the JSON text ["a","b"].
      expect(slugsOf(await list(`search=${encodeURIComponent('a","b')}`))).toEqual([]);
      expect(slugsOf(await list(`search=${encodeURIComponent('"a"')}`))).toEqual([]);
    });

    it('refuses an unknown source, a bad limit and a malformed cursor (400)', async () => {
      expect(issuePaths(await request('GET', '/sections?source=plugin'))).toEqual(['source']);
      expect(issuePaths(await request('GET', '/sections?limit=0'))).toEqual(['limit']);
      expect(issuePaths(await request('GET', '/sections?limit=101'))).toEqual(['limit']);
      expect(issuePaths(await request('GET', '/sections?cursor=nope'))).toEqual(['cursor']);
    });
  });

  it('refuses a taken slug, on create and on rename (409)', async () => {
    expectCreated(await request('POST', '/sections', { slug: 'taken', title: 'Taken', content: [] }));
    expectCreated(await request('POST', '/sections', { slug: 'free', title: 'Free', content: [] }));
    expect(expectError(await request('POST', '/sections', { slug: 'taken', title: 'Again', content: [] }), 409, 'DUPLICATE_SLUG').details).toEqual({ slug: 'taken' });
    expectError(await request('PUT', '/sections/free', { slug: 'taken' }), 409, 'DUPLICATE_SLUG');
    expect(expectSuccess(await request('GET', '/sections/free')).item.title).toBe('Free');
  });

  it('refuses bad input with a 400 naming each problem', async () => {
    expect(issuePaths(await request('POST', '/sections', { slug: 'Not Safe', title: '', content: [] }))).toEqual(['slug', 'title']);
    expect(issuePaths(await request('POST', '/sections', { slug: 'x', title: 'X' }))).toEqual(['content']);
    expect(issuePaths(await request('POST', '/sections', { slug: 'x', title: 'X', content: 42 }))).toEqual(['content']);
    expect(issuePaths(await request('POST', '/sections', { slug: 'x', title: 'X', content: [], source: 'plugin', extra: 1 }))).toEqual(['source', 'extra']);
    expect(issuePaths(await request('POST', '/sections', { slug: 'x', title: 'X', content: [], keywords: ['ok', 7, ''] }))).toEqual(['keywords.1', 'keywords.2']);
    const broken = [paragraph('p1', 'fine'), { _type: 'block', _key: 'p2', children: [{ _type: 'span', _key: 'c', text: 5 }] }, 'not a block'];
    const error = expectError(await request('POST', '/sections', { slug: 'x', title: 'X', content: broken }), 400, 'VALIDATION_ERROR');
    expect(error.details.issues.map((issue: { path: string }) => issue.path)).toEqual(['content.1.children.0.text', 'content.2']);
    expect(issuePaths(await request('POST', '/sections', { slug: 'x', title: 'X', content: `${'>'.repeat(200)} deep` }))).toEqual(['content']);
    expectCreated(await request('POST', '/sections', { slug: 'target', title: 'Target', content: [] }));
    expect(issuePaths(await request('PUT', '/sections/target', { slug: 'Bad Slug', content: [{ _key: 'k' }] }))).toEqual(['slug', 'content.0._type']);
    expectError(await request('GET', '/sections/nope'), 404, 'NOT_FOUND');
    expectError(await request('PUT', '/sections/nope', { title: 'x' }), 404, 'NOT_FOUND');
    expectError(await request('DELETE', '/sections/nope'), 404, 'NOT_FOUND');
    expectError(await request('GET', '/sections/nope/more'), 404, 'NOT_FOUND');
  });

  describe('access', () => {
    const setPublicRead = async (value: boolean) => expectSuccess(await request('POST', '/settings', { publicRead: value }));
    beforeAll(async () => {
      expectCreated(await request('POST', '/sections', { slug: 'open', title: 'Open', content: 'Hello' }));
    });

    it('needs a token (401), content:read to read and content:write to write (403)', async () => {
      expectError(await request('GET', '/sections', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('GET', '/sections/open', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('POST', '/sections', { slug: 'y', title: 'Y', content: [] }, null), 401, 'UNAUTHORIZED');
      const writes: [string, string, unknown][] = [
        ['POST', '/sections', { slug: 'y', title: 'Y', content: [] }],
        ['PUT', '/sections/open', { title: 'Closed' }],
        ['DELETE', '/sections/open', undefined],
      ];
      for (const [method, path, body] of writes) {
        expect(expectError(await request(method, path, body, reader), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:write' });
      }
      const noScope = (await t.userWithToken(40, ['media:read'])).token;
      expect(expectError(await request('GET', '/sections', undefined, noScope), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:read' });
      expect(expectSuccess(await request('GET', '/sections/open', undefined, reader)).item.title).toBe('Open');
    });

    it('lets the public read while publicRead is on, and closes again at once when it is turned off', async () => {
      await setPublicRead(true);
      try {
        expect(slugsOf(expectSuccess(await request('GET', '/sections?search=open', undefined, null)))).toEqual(['open']);
        expect(expectSuccess(await request('GET', '/sections/open', undefined, null)).item.title).toBe('Open');
        expectError(await request('PUT', '/sections/open', { title: 'Public' }, null), 401, 'UNAUTHORIZED');
        expectError(await request('DELETE', '/sections/open', undefined, null), 401, 'UNAUTHORIZED');
      } finally {
        await setPublicRead(false);
      }
      expectError(await request('GET', '/sections', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('GET', '/sections/open', undefined, null), 401, 'UNAUTHORIZED');
    });
  });
});
