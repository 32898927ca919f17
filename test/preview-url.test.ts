import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../src/system/housekeeping.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';

/**
 * Preview links (decisions/0046): POST /content/:collection/:id/preview-url gives the entry's page on
 * the site with a `preview` token; the site reads that entry's latest draft with it, without
 * credentials, from GET /content/:collection/:id/preview until it expires, and nothing else.
 */

let t: TestApp;
let contributorToken: string;
let subscriberToken: string;
let readOnlyToken: string;

function call(method: string, path: string, options: { body?: unknown; token?: string | null } = {}): Promise<ApiResponse> {
  const { token = t.adminToken, body } = options;
  return t.request(method, `${api}${path}`, { ...(token === null ? {} : { token }), ...(body === undefined ? {} : { body }) });
}

async function previewUrl(collection: string, id: string, body: Record<string, unknown> = {}, token = t.adminToken): Promise<{ url: string; expiresAt: string }> {
  return expectSuccess(await call('POST', `/content/${collection}/${id}/preview-url`, { body, token }));
}

/** What a site does with the link it was opened with: the token from its `preview` parameter, then the API without credentials. */
function readAsSite(collection: string, ref: string, url: string, query = ''): Promise<ApiResponse> {
  const token = new URL(url).searchParams.get('preview')!;
  return call('GET', `/content/${collection}/${ref}/preview?token=${encodeURIComponent(token)}${query}`, { token: null });
}

beforeAll(async () => {
  t = await createTestApp();
  const fields = [
    { slug: 'title', type: 'string', required: true },
    { slug: 'body', type: 'text' },
  ];
  await createCollection(t, 'posts', fields, { supports: ['drafts', 'revisions', 'preview'], urlPattern: '/{locale}/blog/{slug}' });
  await createCollection(t, 'notes', fields, { supports: ['drafts', 'revisions'], urlPattern: '/notes/{slug}' });
  await createCollection(t, 'pages', fields, { supports: ['drafts', 'preview'] });
  expectSuccess(await call('POST', '/settings', { body: { siteUrl: 'https://www.example.com/site/' } }));
  contributorToken = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
  subscriberToken = (await t.userWithToken(10, ['content:read'])).token;
  readOnlyToken = (await t.userWithToken(40, ['content:read'])).token;
});
afterAll(() => t.close());

describe('a preview link', () => {
  it("opens the entry's page on the site, and the site reads the latest draft with it, without credentials", async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Live title', body: 'Live body' }, status: 'published' });
    expectSuccess(await call('PUT', `/content/posts/${entry.id}`, { body: { data: { title: 'Draft title', body: 'Draft body' }, slug: 'draft-slug' } }));
    const { url, expiresAt } = await previewUrl('posts', entry.id, {}, contributorToken);

    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe('https://www.example.com/site/en/blog/draft-slug');
    expect(link.searchParams.get('preview')).toMatch(/^[0-9A-Z]{26}\.[\w-]{43}$/);
    // An hour by default, on the server's clock.
    expect(expiresAt).toBe(new Date(t.clock.now().getTime() + 3600_000).toISOString());

    // By the slug the site's route carries, or by id; the public read of the same entry still shows the live values.
    for (const ref of ['draft-slug', entry.id]) {
      const { item } = expectSuccess(await readAsSite('posts', ref, url, '&locale=en'));
      expect(item).toMatchObject({ id: entry.id, slug: 'draft-slug', data: { title: 'Draft title', body: 'Draft body' }, liveData: { title: 'Live title' } });
    }
    expectError(await call('GET', `/content/posts/${entry.id}`, { token: null }), 401, 'UNAUTHORIZED');

    // Later saves show at once: the link reads the draft as it is now.
    expectSuccess(await call('PUT', `/content/posts/${entry.id}`, { body: { data: { body: 'Edited again' } } }));
    expect(expectSuccess(await readAsSite('posts', entry.id, url)).item.data.body).toBe('Edited again');
  });

  it('reads only the entry it was made for', async () => {
    const first = await createEntry(t, 'posts', { data: { title: 'First' } });
    const second = await createEntry(t, 'posts', { data: { title: 'Second' } });
    const { url } = await previewUrl('posts', first.id);
    expectSuccess(await readAsSite('posts', first.id, url));
    for (const [collection, ref] of [
      ['posts', second.id],
      ['posts', second.slug],
      ['notes', first.id],
      ['nosuch', first.id],
    ]) {
      const refused = expectError(await readAsSite(collection!, ref!, url), 404, 'NOT_FOUND');
      expect(refused.message).toContain('Preview');
    }
  });

  it('is refused once it has expired, and housekeeping then removes it', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Brief' } });
    const { url, expiresAt } = await previewUrl('posts', entry.id, { expiresIn: 60 });
    expect(Date.parse(expiresAt) - t.clock.now().getTime()).toBe(60_000);
    t.clock.advance(59_000);
    expectSuccess(await readAsSite('posts', entry.id, url));
    t.clock.advance(1_000);
    expectError(await readAsSite('posts', entry.id, url), 404, 'NOT_FOUND');
    const id = new URL(url).searchParams.get('preview')!.split('.')[0]!;
    expect(await t.db.kysely.selectFrom('preview_grants').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
    await sweepExpired({ db: t.db, clock: t.clock, storage: t.storage });
    expect(await t.db.kysely.selectFrom('preview_grants').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('refuses a token that is malformed, altered or unknown, and an entry in the trash', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Guarded' } });
    const { url } = await previewUrl('posts', entry.id);
    const token = new URL(url).searchParams.get('preview')!;
    const [id, secret] = token.split('.') as [string, string];
    const altered = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [altered, `${id}.`, `.${secret}`, `${token}.x`, `01ARZ3NDEKTSV4RRFFQ69G5FAV.${secret}`, 'abc']) {
      expectError(await call('GET', `/content/posts/${entry.id}/preview?token=${encodeURIComponent(bad)}`, { token: null }), 404, 'NOT_FOUND');
    }
    expectSuccess(await call('DELETE', `/content/posts/${entry.id}`));
    expectError(await readAsSite('posts', entry.id, url), 404, 'NOT_FOUND');
  });

  it('keeps the site URL without its query and a pattern with the entry id', async () => {
    expectSuccess(await call('POST', '/settings', { body: { siteUrl: 'https://example.org?ref=cms' } }));
    expectSuccess(await call('PATCH', '/schema/collections/pages', { body: { urlPattern: '/p/{id}/{slug}' } }));
    const entry = await createEntry(t, 'pages', { data: { title: 'About us' } });
    const { url } = await previewUrl('pages', entry.id);
    expect(url).toMatch(new RegExp(`^https://example\\.org/p/${entry.id}/about-us\\?preview=[^&]+$`));
    expectSuccess(await call('POST', '/settings', { body: { siteUrl: 'https://www.example.com/site/' } }));
  });
});

describe('asking for a preview link', () => {
  it('names expiresIn when it is out of bounds or not a whole number, and refuses unknown keys', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Bounds' } });
    for (const expiresIn of [59, 7 * 24 * 3600 + 1, 1.5, '3600', -1]) {
      expect(issuePaths(await call('POST', `/content/posts/${entry.id}/preview-url`, { body: { expiresIn } }))).toEqual(['expiresIn']);
    }
    expect(issuePaths(await call('POST', `/content/posts/${entry.id}/preview-url`, { body: { expires: 60 } }))).toEqual(['expires']);
    expect((await previewUrl('posts', entry.id, { expiresIn: 7 * 24 * 3600 })).expiresAt).toBe(new Date(t.clock.now().getTime() + 7 * 24 * 3600_000).toISOString());
  });

  it('needs a credential (401) and content:write with the role to edit (403)', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Access' } });
    const path = `/content/posts/${entry.id}/preview-url`;
    expectError(await call('POST', path, { token: null, body: {} }), 401, 'UNAUTHORIZED');
    expect(expectError(await call('POST', path, { token: subscriberToken, body: {} }), 403, 'FORBIDDEN').details).toMatchObject({ requiredScope: 'content:write' });
    expect(expectError(await call('POST', path, { token: readOnlyToken, body: {} }), 403, 'FORBIDDEN').details).toMatchObject({ requiredScope: 'content:write' });
    // A token refused is a 401, not the public's preview read: the grant is made only for an editor.
    expectError(await call('POST', path, { token: 'ec_pat_nonsense', body: {} }), 401, 'UNAUTHORIZED');
  });

  it('is refused with a reason for a collection without preview, without a URL pattern, or a site without siteUrl', async () => {
    const note = await createEntry(t, 'notes', { data: { title: 'No preview' } });
    const refused = expectError(await call('POST', `/content/notes/${note.id}/preview-url`, { body: {} }), 409, 'CONFLICT');
    expect(refused.details).toEqual({ reason: 'preview_not_supported' });
    expect(refused.message).toContain('supports has no "preview"');

    expectSuccess(await call('PATCH', '/schema/collections/pages', { body: { urlPattern: null } }));
    const page = await createEntry(t, 'pages', { data: { title: 'Nowhere' } });
    expect(expectError(await call('POST', `/content/pages/${page.id}/preview-url`, { body: {} }), 409, 'CONFLICT').details).toEqual({ reason: 'no_url_pattern' });

    const post = await createEntry(t, 'posts', { data: { title: 'No site' } });
    expectSuccess(await call('POST', '/settings', { body: { siteUrl: null } }));
    expect(expectError(await call('POST', `/content/posts/${post.id}/preview-url`, { body: {} }), 409, 'CONFLICT').details).toEqual({ reason: 'no_site_url' });
    expectSuccess(await call('POST', '/settings', { body: { siteUrl: 'https://www.example.com/site/' } }));
  });

  it('answers 404 for an entry or collection that does not exist', async () => {
    expectError(await call('POST', '/content/posts/01ARZ3NDEKTSV4RRFFQ69G5FAV/preview-url', { body: {} }), 404, 'NOT_FOUND');
    expectError(await call('POST', '/content/nosuch/anything/preview-url', { body: {} }), 404, 'NOT_FOUND');
  });

  it('names the token when the site sends none', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Tokenless' } });
    expect(issuePaths(await call('GET', `/content/posts/${entry.id}/preview`, { token: null }))).toEqual(['token']);
  });
});
