import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../src/system/housekeeping.ts';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { clientId, clientSecret, expiredToken, fullToken, limitedToken, startWpcomFixture, type WpcomFixture } from './support/wpcom.ts';
import { analyze } from './support/wxr.ts';

/**
 * `legacy-hosted`: a WordPress.com site read through its REST API with an OAuth token, against a
 * loopback server answering in the API's documented shapes (test/support/wpcom.ts).
 */

const settings = (fixture: WpcomFixture, extra: Record<string, string> = {}) => ({
  OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true',
  WPCOM_API_URL: fixture.origin,
  WPCOM_CLIENT_ID: clientId,
  WPCOM_CLIENT_SECRET: clientSecret,
  IMPORT_API_TIMEOUT_MS: '400',
  IMPORT_API_RETRIES: '2',
  IMPORT_API_RETRY_DELAY_MS: '10',
  IMPORT_MEDIA_RETRY_DELAY_MS: '10',
  ...extra,
});

/** A loopback WordPress.com (with `bulkPosts` plain posts besides the named ones) and a test app pointed at it, for the suite that calls this. */
function hostedSite(bulkPosts?: number): { wpcom: WpcomFixture; t: TestApp } {
  const site = {} as { wpcom: WpcomFixture; t: TestApp };
  beforeAll(async () => {
    site.wpcom = await startWpcomFixture(bulkPosts);
    site.t = await createTestApp(settings(site.wpcom));
  });
  afterAll(async () => {
    await site.t.close();
    await site.wpcom.close();
  });
  return site;
}

describe('Import: WordPress.com (legacy-hosted)', () => {
  const site = hostedSite();
  const request = (method: string, path: string, body?: unknown, token: string | null = site.t.adminToken) => site.t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const analyzeSite = (accessToken: string, url = site.wpcom.origin) => request('POST', '/import/legacy/analyze', { source: 'legacy-hosted', url, accessToken });
  const analysesCount = async () => (await site.t.db.kysely.selectFrom('import_analyses').select('id').execute()).length;
  const apiCalls = (pathEnd: string) => site.wpcom.requests.filter((entry) => entry.path.split('?')[0]!.endsWith(pathEnd));

  it('analyses a site with a token the client holds: every type and status, page after page, with authors, terms, custom fields and media', async () => {
    const analysis = expectCreated(await analyzeSite(fullToken));
    expect(analysis).toMatchObject({ source: 'legacy-hosted', site: { title: 'Hosted fixture', url: site.wpcom.origin, language: 'en' }, attachments: { images: 2, video: 0, audio: 0, other: 0 }, menus: [], comments: 4 });
    const types = Object.fromEntries(analysis.postTypes.map((type: { name: string; count: number }) => [type.name, type]));
    // 105 notes and five named posts (publish, draft, pending, future, private); two pages; one book.
    expect(types.post).toMatchObject({ count: site.wpcom.bulkPosts + 5, collection: 'posts', status: 'new_collection' });
    expect(types.post.fieldsToAdd.map((field: { slug: string }) => field.slug)).toContain('subtitle');
    expect(types.page).toMatchObject({ count: 2, collection: 'pages' });
    expect(types.page.fieldsToAdd.map((field: { slug: string }) => field.slug)).toEqual(expect.arrayContaining(['parent', 'menu_order']));
    expect(types.book).toMatchObject({ count: 1, collection: 'book' });
    expect(types.book.fieldsToAdd).toContainEqual(expect.objectContaining({ slug: 'isbn', type: 'integer' }));
    expect(analysis.skipped).toEqual([]);
    expect(analysis.authors).toEqual(expect.arrayContaining([expect.objectContaining({ login: 'alice', displayName: 'Alice Author' }), expect.objectContaining({ login: 'bob', displayName: 'Bob Writer', posts: 3 })]));
    expect(analysis.taxonomies).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'category', target: 'category', hierarchical: true, terms: 2 }), expect.objectContaining({ name: 'post_tag', terms: 1 })]));
    // More than a page of published posts: the second asked for by the handle the first gave.
    expect(apiCalls('/posts/').some((entry) => entry.path.includes('page_handle=offset%3D100'))).toBe(true);
    // Every call carried the token; the token never shows in the analysis.
    expect(site.wpcom.requests.every((entry) => entry.authorization === `Bearer ${fullToken}`)).toBe(true);
    expect(JSON.stringify(analysis)).not.toContain(fullToken);
  });

  it('reports private posts as skipped, not failed, when the token may not read them (no approval)', async () => {
    const analysis = expectCreated(await analyzeSite(limitedToken));
    expect(analysis.postTypes.find((type: { name: string }) => type.name === 'post').count).toBe(site.wpcom.bulkPosts + 4);
    expect(analysis.skipped).toContainEqual({ postType: 'post (private)', count: 0, reason: expect.stringMatching(/approval.*User cannot view private posts/) });
  });

  it('waits as long as a 429 says (Retry-After) and tries again', async () => {
    site.wpcom.requests.length = 0;
    site.wpcom.fault('/post-types', { kind: 'status', status: 429, retryAfter: '1' });
    expectCreated(await analyzeSite(fullToken));
    const calls = apiCalls('/post-types');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('tries again after a timeout and after a 5xx, with growing pauses', async () => {
    site.wpcom.requests.length = 0;
    site.wpcom.fault('/categories', { kind: 'hang', ms: 2000 });
    site.wpcom.fault('/media', { kind: 'status', status: 503 });
    expectCreated(await analyzeSite(fullToken));
    // The first answer came too late (IMPORT_API_TIMEOUT_MS) and was asked for again.
    expect(apiCalls('/categories').length).toBe(2);
    expect(apiCalls('/media').length).toBe(2);
  });

  it('answers 503 naming the source when WordPress.com keeps failing, and records nothing', async () => {
    const before = await analysesCount();
    for (let index = 0; index < 3; index++) site.wpcom.fault('/post-types', { kind: 'status', status: 502 });
    const error = expectError(await analyzeSite(fullToken), 503, 'SERVICE_UNAVAILABLE');
    expect(error.message).toMatch(/^legacy-hosted: WordPress.com did not answer .*502.*3 tries/);
    expect(await analysesCount()).toBe(before);
  });

  it('refuses an invalid or expired token with a 400 naming the source, and imports nothing', async () => {
    const before = await analysesCount();
    for (const token of ['not-a-token', expiredToken]) {
      const response = await analyzeSite(token);
      const error = expectError(response, 400, 'VALIDATION_ERROR');
      expect(error.message).toMatch(/^legacy-hosted: WordPress.com refused the access token \((invalid_token|authorization_required)/);
      expect(issuePaths(response)).toEqual(['accessToken']);
    }
    expect(await analysesCount()).toBe(before);
  });

  it('probes a private WordPress.com site (the API answers 403 without a token) as likely hosted, and offers the connection', async () => {
    const privateSite = site.wpcom.origin.replace('127.0.0.1', 'localhost');
    const probe = expectSuccess(await request('POST', '/import/probe', { url: privateSite }));
    expect(probe).toMatchObject({ platform: 'wordpress.com', sourceId: 'legacy-hosted', confidence: 'likely', detected: { private: true, counts: { posts: null } }, suggestedAction: { action: 'connect-oauth' } });
    expect(new URL(probe.suggestedAction.connectUrl).searchParams.get('url')).toBe(privateSite);
    // A site WordPress.com does not know is not its: no platform answers.
    expect(expectSuccess(await request('POST', '/import/probe', { url: 'http://127.0.0.2:9/' }))).toMatchObject({ platform: 'unknown', suggestedAction: { action: 'upload-file' } });
  });

  it('refuses a site WordPress.com does not know (400)', async () => {
    const response = await analyzeSite(fullToken, 'https://nobody.example');
    expect(expectError(response, 400, 'VALIDATION_ERROR').message).toMatch(/^legacy-hosted: WordPress.com has no such site/);
  });

  it('refuses bad input (400 naming it) and needs an admin (401, 403)', async () => {
    const bad: [unknown, string][] = [
      [{ source: 'legacy-hosted', url: site.wpcom.origin }, 'accessToken'],
      [{ source: 'legacy-hosted', url: 'not a url', accessToken: fullToken }, 'url'],
      [{ source: 'wxr', url: site.wpcom.origin, accessToken: fullToken }, 'source'],
      [{ source: 'legacy-hosted', url: site.wpcom.origin, accessToken: '' }, 'accessToken'],
      // Characters an Authorization header cannot carry (issue 36: these answered 500).
      [{ source: 'legacy-hosted', url: site.wpcom.origin, accessToken: 'a\r\nb' }, 'accessToken'],
      [{ source: 'legacy-hosted', url: site.wpcom.origin, accessToken: 'abc\u202edef' }, 'accessToken'],
      [{ source: 'legacy-hosted', url: site.wpcom.origin, accessToken: 'two words' }, 'accessToken'],
      [{ source: 'legacy-hosted', url: site.wpcom.origin, accessToken: fullToken, extra: 1 }, ''],
    ];
    for (const [body, path] of bad) {
      const response = await request('POST', '/import/legacy/analyze', body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(issuePaths(response).some((issue) => issue.startsWith(path))).toBe(true);
    }
    expect(issuePaths(await request('GET', '/import/legacy/connect?url=nope'))).toContain('url');
    expect(issuePaths(await request('POST', '/import/legacy/connect', { url: 'ftp://x.example' }))).toContain('url');
    expect(issuePaths(await request('GET', '/import/legacy/callback?code=abc'))).toContain('state');

    const editor = (await site.t.userWithToken(40, ['content:read', 'content:write', 'media:write'])).token;
    const calls: [string, string, unknown?][] = [
      ['POST', '/import/legacy/analyze', { source: 'legacy-hosted', url: site.wpcom.origin, accessToken: fullToken }],
      ['GET', `/import/legacy/connect?url=${encodeURIComponent(site.wpcom.origin)}`],
      ['POST', '/import/legacy/connect', { url: site.wpcom.origin }],
      ['GET', '/import/legacy/callback?state=abc&code=def'],
    ];
    for (const [method, path, body] of calls) {
      expectError(await request(method, path, body, null), 401, 'UNAUTHORIZED');
      expectError(await request(method, path, body, editor), 403, 'FORBIDDEN');
    }
  });

  it('connects through WordPress.com: a state bound to the admin and used once, the code traded at the token endpoint', async () => {
    const started = expectSuccess(await request('POST', '/import/legacy/connect', { url: site.wpcom.origin }));
    const authorize = new URL(started.authorizeUrl);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${site.wpcom.origin}/oauth2/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({ client_id: clientId, redirect_uri: started.redirectUri, response_type: 'code', blog: site.wpcom.origin, state: expect.stringMatching(/^[\w-]{40,}$/) });
    expect(started.redirectUri).toMatch(/\/_cms\/api\/import\/legacy\/callback$/);
    const state = authorize.searchParams.get('state')!;

    // Another admin cannot bring this state back; WordPress.com saying no is a 400 too.
    const otherAdmin = (await site.t.userWithToken(50, ['admin'])).token;
    expect(issuePaths(await request('GET', `/import/legacy/callback?state=${state}&code=whatever`, undefined, otherAdmin))).toEqual(['state']);
    const denied = await request('GET', `/import/legacy/callback?state=${state}&error=access_denied&error_description=${encodeURIComponent('The user denied access')}`);
    expect(expectError(denied, 400, 'VALIDATION_ERROR').message).toMatch(/^legacy-hosted: WordPress.com did not authorize the connection \(access_denied: The user denied access\)/);
    // The denial used the state up.
    expect(issuePaths(await request('GET', `/import/legacy/callback?state=${state}&code=code-1`))).toEqual(['state']);

    // A callback without the code (nor an error) is a 400 naming it.
    const bare = new URL(expectSuccess(await request('POST', '/import/legacy/connect', { url: site.wpcom.origin })).authorizeUrl);
    expect(issuePaths(await request('GET', `/import/legacy/callback?state=${bare.searchParams.get('state')}`))).toEqual(['code']);

    // A code WordPress.com did not issue is refused at its token endpoint.
    const again = new URL(expectSuccess(await request('POST', '/import/legacy/connect', { url: site.wpcom.origin })).authorizeUrl);
    const refused = await request('GET', `/import/legacy/callback?state=${again.searchParams.get('state')}&code=forged`);
    expect(expectError(refused, 400, 'VALIDATION_ERROR').message).toMatch(/^legacy-hosted: WordPress.com refused the authorization code \(invalid_grant/);
  });

  it('lets a connection lapse after ten minutes, and housekeeping sweeps it', async () => {
    const started = new URL(expectSuccess(await request('POST', '/import/legacy/connect', { url: site.wpcom.origin })).authorizeUrl);
    const pending = async () => (await site.t.db.kysely.selectFrom('import_connections').select('state_hash').execute()).length;
    const before = await pending();
    site.t.clock.advance(10 * 60_000 + 1);
    await sweepExpired(site.t);
    expect(await pending()).toBe(0);
    expect(before).toBeGreaterThan(0);
    expect(issuePaths(await request('GET', `/import/legacy/callback?state=${started.searchParams.get('state')}&code=code-9`))).toEqual(['state']);
  });

  it('answers 503 naming the missing configuration when the deployment has no WordPress.com application', async () => {
    const bare = await createTestApp(settings(site.wpcom, { WPCOM_CLIENT_ID: '', WPCOM_CLIENT_SECRET: '' }));
    try {
      for (const [method, path, body] of [['GET', `/import/legacy/connect?url=${encodeURIComponent(site.wpcom.origin)}`], ['POST', '/import/legacy/connect', { url: site.wpcom.origin }], ['GET', '/import/legacy/callback?state=abc&code=def']] as const) {
        const error = expectError(await bare.request(method, `${api}${path}`, { token: bare.adminToken, body }), 503, 'SERVICE_UNAVAILABLE');
        expect(error.message).toMatch(/^legacy-hosted: .*WPCOM_CLIENT_ID and WPCOM_CLIENT_SECRET/);
        expect(error.details.missing).toEqual(['WPCOM_CLIENT_ID', 'WPCOM_CLIENT_SECRET']);
      }
    } finally {
      await bare.close();
    }
  });
});

describe('Import: a whole WordPress.com site, from probe to rewritten media', () => {
  const site = hostedSite(3);
  const request = (method: string, path: string, body?: unknown) => site.t.request(method, `${api}${path}`, { token: site.t.adminToken, body });

  it('probes, connects, analyses, imports, downloads the media and leaves no entry pointing at the old site', async () => {
    // Probe: the public API knows the site.
    const probe = expectSuccess(await request('POST', '/import/probe', { url: site.wpcom.origin }));
    expect(probe).toMatchObject({
      platform: 'wordpress.com',
      sourceId: 'legacy-hosted',
      confidence: 'definite',
      detected: { hosting: 'hosted', title: 'Hosted fixture', siteId: 4242, counts: { posts: 4, pages: 2, media: 2 } },
      suggestedAction: { action: 'connect-oauth', connectUrl: expect.stringContaining('/_cms/api/import/legacy/connect?url=') },
    });

    // Connect: Folio sends the admin to WordPress.com, which sends them back with a code.
    const connectPath = new URL(probe.suggestedAction.connectUrl).pathname + new URL(probe.suggestedAction.connectUrl).search;
    const redirect = await site.t.request('GET', connectPath, { token: site.t.adminToken });
    expect(redirect.status).toBe(302);
    const approved = await fetch(redirect.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    expect(back.searchParams.get('code')).toMatch(/^code-/);

    // Callback: the code becomes a token, and the site is analysed.
    const analysis = expectCreated(await site.t.request('GET', back.pathname + back.search, { token: site.t.adminToken }));
    expect(analysis).toMatchObject({ source: 'legacy-hosted', site: { url: site.wpcom.origin } });
    expect(analysis.postTypes.map((type: { name: string }) => type.name).sort()).toEqual(['book', 'page', 'post']);

    expectSuccess(
      await request('POST', '/import/legacy/prepare', {
        analysisId: analysis.analysisId,
        postTypes: [
          { name: 'post', collection: 'posts', enabled: true },
          { name: 'page', collection: 'pages', enabled: true },
          { name: 'book', collection: 'book', enabled: true },
        ],
      }),
    );
    const beforeImport = site.wpcom.requests.length;
    const done = expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMedia: true } })).item;
    expect(done.state).toBe('succeeded');
    expect(done.report).toMatchObject({ counts: { posts: 8, pages: 2, book: 1 }, failed: [], bylines: 2 });
    // The site's comments are listed by id once for the import (a page per status), though its records are read twice.
    const listings = site.wpcom.requests.slice(beforeImport).filter((entry) => /\/sites\/[^/]+\/comments\//.test(entry.path));
    expect(listings.map((entry) => new URL(entry.path, 'http://x').searchParams.get('status')).sort()).toEqual(['approved', 'spam', 'trash', 'unapproved']);
    expect(done.report.warnings).toContainEqual(expect.objectContaining({ sourceId: '5', message: 'private in the source: imported as a draft' }));
    // The conversation under post 1: threaded, held and spam ones kept as such; only posts with comments asked for theirs.
    expect(done.report.comments).toEqual({ approved: 2, pending: 1, spam: 1, trash: 0 });
    const replies = site.wpcom.requests.filter((entry) => entry.path.includes('/replies/'));
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((entry) => entry.path.includes('/posts/1/replies/'))).toBe(true);
    expect(done.report.warnings).toContainEqual(expect.objectContaining({ sourceId: '1000', message: 'password-protected in the source: imported as a draft, so it is not public (the password is not kept)' }));
    // Media: downloaded by the job itself, then every old URL rewritten.
    expect(done.report.media.downloads).toMatchObject({ total: 2, downloaded: 2, failed: 0 });
    expect(done.report.media.downloads.rewritten.entries).toBeGreaterThanOrEqual(2);
    expect(done.report.media.pending).toBeUndefined();

    // What the items became: statuses, terms with parents, bylines, custom fields, page hierarchy.
    const sunset = expectSuccess(await request('GET', '/content/posts/sunset')).item;
    expect(sunset).toMatchObject({ status: 'published', data: { title: 'Sunset over the bay', subtitle: 'A first evening', meta: { _wp_old_slug: ['sunset-draft', 'evening'] } } });
    expect(sunset.bylines).toHaveLength(1);
    const byline = expectSuccess(await request('GET', `/bylines/${sunset.primaryBylineId}`)).item;
    expect(byline.displayName).toBe('Alice Author');
    const threads = expectSuccess(await request('GET', `/content/posts/${sunset.id}/comments?order=oldest`)).items;
    expect(threads).toEqual([
      expect.objectContaining({
        authorName: 'Visiting Val',
        authorUrl: 'https://val.example',
        createdAt: '2024-05-02T06:00:00.000Z',
        bodyHtml: expect.stringContaining('Lovely <em>light</em>.<br>Where was this?'),
        replies: [expect.objectContaining({ authorName: 'Alice Author', bodyHtml: expect.stringContaining('At the harbour.') })],
      }),
    ]);
    const drafts = expectSuccess(await request('GET', '/content/posts?status=draft&limit=50')).items.map((entry: { slug: string }) => entry.slug);
    expect(drafts.sort()).toEqual(['half-written', 'members-only', 'note-0', 'waiting']);
    expect(expectSuccess(await request('GET', '/content/posts/next-week')).item.status).toBe('scheduled');
    const team = expectSuccess(await request('GET', '/content/pages/team')).item;
    const about = expectSuccess(await request('GET', '/content/pages/about')).item;
    expect(team.data.parent).toBe(about.id);
    const news = expectSuccess(await request('GET', '/taxonomies/category/terms')).items.find((term: { slug: string }) => term.slug === 'news');
    const updates = expectSuccess(await request('GET', '/taxonomies/category/terms')).items.find((term: { slug: string }) => term.slug === 'updates');
    expect(news.parentId).toBe(updates.id);
    expect(expectSuccess(await request('GET', '/content/book/a-novel')).item.data.isbn).toBe(9780000000001);

    const library = expectSuccess(await request('GET', '/media')).items;
    expect(library).toHaveLength(2);
    expect(library).toContainEqual(expect.objectContaining({ title: 'Sunset', alt: 'A red sunset', caption: 'Evening light', width: 30, height: 20 }));

    const everything = [];
    for (const collection of ['posts', 'pages', 'book']) {
      for (const status of ['published', 'draft', 'scheduled']) {
        everything.push(...expectSuccess(await request('GET', `/content/${collection}?status=${status}&limit=100`)).items);
      }
    }
    expect(everything).toHaveLength(11);
    const text = JSON.stringify(everything.map((entry: { data: unknown }) => entry.data));
    expect(text).not.toContain(`${site.wpcom.origin}/files/`);
    // The job has no request to take a host from: its URLs start with the configured public URL.
    for (const item of library) expect(text).toContain(new URL(item.url).pathname);

    // The same site again, with the token the client now holds: nothing made twice.
    const second = expectCreated(await request('POST', '/import/legacy/analyze', { source: 'legacy-hosted', url: site.wpcom.origin, accessToken: fullToken }));
    const report = expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: second.analysisId, options: { includeMedia: true } })).item.report;
    expect(report).toMatchObject({ alreadyImported: 11 + 2, failed: [] });
    expect(Object.values(report.counts).every((count) => count === 0)).toBe(true);
  });
});

describe('Import: a WordPress.com site whose export file was imported before', () => {
  const site = hostedSite(0);
  const request = (method: string, path: string, body?: unknown) => site.t.request(method, `${api}${path}`, { token: site.t.adminToken, body });

  it('finds what the export made (same site, same ids) and makes it no second time', async () => {
    const exportFile = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Hosted fixture</title><link>${site.wpcom.origin}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site.wpcom.origin}</wp:base_site_url><wp:base_blog_url>${site.wpcom.origin}</wp:base_blog_url>
  <wp:author><wp:author_login>alice</wp:author_login><wp:author_display_name>Alice Author</wp:author_display_name></wp:author>
  <wp:category><wp:term_id>3</wp:term_id><wp:category_nicename>updates</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name>Updates</wp:cat_name></wp:category>
  <item><title>Sunset over the bay</title><dc:creator>alice</dc:creator><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>sunset</wp:post_name><wp:post_date_gmt>2024-05-01 08:00:00</wp:post_date_gmt>
    <content:encoded><![CDATA[<p>From the export</p>]]></content:encoded></item>
  <item><title>Sunset</title><wp:post_id>501</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>sunset-image</wp:post_name><wp:attachment_url>${site.wpcom.files}/sunset.png</wp:attachment_url></item>
</channel></rss>`;
    const fromFile = expectCreated(await analyze(site.t, Buffer.from(exportFile)));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: fromFile.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
    expect(expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: fromFile.analysisId, options: { includeMedia: true } })).item.state).toBe('succeeded');

    const live = expectCreated(await request('POST', '/import/legacy/analyze', { source: 'legacy-hosted', url: site.wpcom.origin, accessToken: fullToken }));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: live.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }, { name: 'page', collection: 'pages', enabled: true }, { name: 'book', collection: 'book', enabled: true }] }));
    const report = expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: live.analysisId, options: { includeMedia: true } })).item.report;
    // The post and the attachment the export made are left as they are; the other four posts, two pages and the book are new.
    expect(report).toMatchObject({ counts: { posts: 4, pages: 2, book: 1 }, alreadyImported: 2, failed: [] });
    expect(report.warnings.filter((warning: { message: string }) => /renamed/.test(warning.message))).toEqual([]);
    expect(expectSuccess(await request('GET', '/content/posts/sunset')).item.data.content).toEqual([expect.objectContaining({ children: [expect.objectContaining({ text: 'From the export' })] })]);
    // Alice has one byline, whichever source met her first.
    expect(expectSuccess(await request('GET', '/bylines')).items.filter((byline: { displayName: string }) => byline.displayName === 'Alice Author')).toHaveLength(1);
  });
});
