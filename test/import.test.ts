import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { expectMediaMoved, expectMenusAsInSource, expectPageParents, expectStatusesAndDates, expectTermsAsInSource, finishedJob, type ImportedEntry, type ImportedTerm } from './support/import-checks.ts';
import { startMediaFixtures, type MediaFixtureServer } from './support/media-fixtures.ts';
import { distinctPng, multipart } from './support/media.ts';
import { allPages, analyze, attachmentPaths, importedEntries, sourceCategories, sourceItems } from './support/wxr.ts';
import { generatedSite, generatedSiteTakenSlug } from './support/wxr-generator.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';


/**
 * The WordPress import end to end through the API (issue 15): a generated site's export and a second
 * export of the same site (test/support/wxr-generator.ts) analysed, prepared and imported, then checked
 * against the source files themselves: statuses and dates, every page parent, category parent, term
 * assignment and menu item. Its media are served by a loopback fixture server standing in for the
 * site, and downloaded in the job. The fidelity suite checks the same on WordPress's own theme unit
 * test and block test data (test/fidelity/import.test.ts).
 */
describe('WordPress import through the API', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  let report: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the report as JSON
  let jobId: string;
  let collisionId: string;
  let site: MediaFixtureServer;
  let dir: string;
  // The generated site's export, and a second export of it: posts 10–16 and the pages, of which only posts 13–16 are new.
  let siteExport: string;
  let secondExport: string;

  beforeAll(async () => {
    site = await startMediaFixtures();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-site-'));
    siteExport = path.join(dir, 'site.xml');
    secondExport = path.join(dir, 'second.xml');
    fs.writeFileSync(siteExport, generatedSite({ site: site.origin }));
    fs.writeFileSync(secondExport, generatedSite({ site: site.origin, postIds: [10, 11, 12, 13, 14, 15, 16], menus: false, attachments: false }));
    for (const [index, path] of attachmentPaths(siteExport).entries()) site.serve(path, await distinctPng(index));
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
    // A post the site already has, whose slug the import will want: renamed with a suffix, and a warning.
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    collisionId = (await createEntry(t, 'posts', { data: { title: 'Mine' }, slug: generatedSiteTakenSlug })).id;

    const analysis = expectCreated(await analyze(t, siteExport));
    expect(analysis).toMatchObject({ source: 'wxr', site: { title: 'Generated Site', url: site.origin, language: 'en-US' }, version: '1.2' });
    const types = Object.fromEntries(analysis.postTypes.map((type: { name: string }) => [type.name, type]));
    expect(types.post).toMatchObject({ count: 12, status: 'add_fields', collection: 'posts' });
    expect(types.page).toMatchObject({ count: 7, status: 'new_collection', collection: 'pages' });
    expect(types.page.fieldsToAdd.map((field: { slug: string }) => field.slug)).toEqual(expect.arrayContaining(['title', 'content', 'parent', 'menu_order']));
    expect(analysis.attachments).toEqual({ images: 3, video: 1, audio: 1, other: 0 });
    expect(analysis.taxonomies).toEqual(
      expect.arrayContaining([
        { name: 'category', target: 'category', hierarchical: true, terms: 4 },
        { name: 'post_tag', target: 'tag', hierarchical: false, terms: 3 },
      ]),
    );
    expect(analysis.menus.map((menu: { name: string }) => menu.name).sort()).toEqual(['deep', 'empty-menu', 'main']);
    expect(analysis.comments).toBe(5);
    expect(analysis.authors.map((author: { login: string }) => author.login).sort()).toEqual(['guest', 'mapped', 'writer']);

    const prepared = expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }, { name: 'page', collection: 'pages', enabled: true }] }));
    expect(prepared.items).toEqual([
      expect.objectContaining({ postType: 'post', collection: 'posts', created: false, fieldsAdded: expect.arrayContaining(['content', 'excerpt', 'featured_image', 'meta']) }),
      expect.objectContaining({ postType: 'page', collection: 'pages', created: true }),
    ]);
    const done = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMedia: true, includeTaxonomies: true, includeMenus: true } }));
    expect(done).toMatchObject({ analysisId: analysis.analysisId, progress: { phase: 'done' }, attempts: 1, lastError: null, finishedAt: expect.any(String) });
    jobId = done.id;
    report = done.report;
  });
  afterAll(async () => {
    await t.close();
    await site.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports every post and page, with the report of DECISIONS §7', async () => {
    expect(report.counts).toEqual({ posts: 12, pages: 7 });
    expect(report.failed).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect(report.comments).toEqual({ approved: 5, pending: 0, spam: 0, trash: 0 });
    expect(report.terms).toBe(7);
    expect(report.menus).toBe(3);
    expect(report.menuItems).toBe(18);
    expect(report.media).toMatchObject({ attachments: 5, featuredImages: 3 });
    expect(report.media.downloads).toMatchObject({ total: 5, downloaded: 5, failed: 0, failures: [] });
    expect(report.media.pending).toBeUndefined();
    expect(report.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ message: `slug ${generatedSiteTakenSlug} was taken in posts; renamed to ${generatedSiteTakenSlug}-2` })]));
    // The deep menu's eleventh and twelfth levels, placed at the tenth.
    expect(report.warnings.filter((warning: { message: string }) => warning.message === 'nested deeper than 10 levels; placed at the 10th').map((warning: { sourceId: string }) => warning.sourceId).sort()).toEqual(['deep/321', 'deep/322']);
    expect(expectSuccess(await request('GET', `/content/posts/${collisionId}`)).item.data.title).toBe('Mine');
  });

  it('downloads the media in the job, each file once, and leaves no entry pointing at the old media site', async () => {
    expect(await expectMediaMoved(t, site, siteExport)).toHaveLength(3);
  });

  it('maps statuses and keeps dates', async () => {
    await expectStatusesAndDates(t, siteExport);
  });

  it('keeps every page parent', async () => {
    expect(await expectPageParents(t, siteExport)).toBe(4);
  });

  it('keeps every category parent and every term assignment', async () => {
    expect(sourceCategories(siteExport).size).toBe(4);
    expect(await expectTermsAsInSource(t, siteExport)).toBe(27);
  });

  it('keeps every menu item, with its nesting and its target', async () => {
    const menus = await expectMenusAsInSource(t, siteExport);
    expect(menus).toEqual(['deep', 'main']);
    expect(expectSuccess(await request('GET', '/menus/empty-menu')).item.items).toEqual([]);
  });

  it('credits bylines: guests by source author, reused, the first primary', async () => {
    const bylines = await allPages<{ id: string; displayName: string; userId: string | null }>(t, '/bylines');
    const visitor = bylines.find((byline) => byline.displayName === 'Visiting Author')!;
    expect(visitor.userId).toBeNull();
    const posts = await allPages<ImportedEntry>(t, '/content/posts');
    const credited = posts.filter((post) => post.primaryBylineId === visitor.id);
    expect(credited.length).toBe(sourceItems(siteExport).filter((item) => item.type === 'post' && item.creator === 'guest').length);
    expect(credited.length).toBe(4);
    expect(credited[0]!.bylines).toEqual([visitor.id]);
  });

  it('follows the job as NDJSON, ending with the report', async () => {
    const response = await request('GET', `/import/jobs/${jobId}/progress`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = String(response.body).trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ id: jobId, state: 'succeeded', progress: { phase: 'done' }, report: { counts: { posts: 12, pages: 7 } } });
  });

  it('duplicates nothing when the same export is imported again', async () => {
    const analysis = expectCreated(await analyze(t, siteExport));
    const { report: second } = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: {} }));
    expect(second.counts).toEqual({});
    expect(second.alreadyImported).toBe(12 + 7 + 18 + 5);
    expect((await allPages<ImportedEntry>(t, '/content/posts')).length).toBe(13);
    expect((await allPages<ImportedEntry>(t, '/content/pages')).length).toBe(7);
    expect((await allPages<ImportedTerm>(t, '/taxonomies/category/terms')).length).toBe(4);
    expect((await allPages<unknown>(t, '/bylines')).length).toBe(3);
  });

  it('imports a second export of the site in one request (form A), users mapped to authors', async () => {
    const user = (await t.userWithToken(40, ['content:read'], 'block-author@example.com')).user;
    const config = JSON.stringify({ postTypeMappings: { post: { collection: 'blocks' }, page: { collection: 'blocks' } }, authorMapping: { mapped: user.id } });
    // A mapping to a collection that does not exist is refused before anything is stored.
    const { body, contentType } = await multipart({ config, file: { bytes: fs.readFileSync(secondExport), filename: 'second.xml' } });
    expectError(await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, rawBody: body, headers: { 'content-type': contentType } }), 400, 'VALIDATION_ERROR');
    await createCollection(t, 'blocks', [{ slug: 'title', type: 'string' }]);
    const { report: blocks } = finishedJob(await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, rawBody: body, headers: { 'content-type': contentType } }));
    const source = sourceItems(secondExport).filter((item) => ['post', 'page'].includes(item.type) && !['trash', 'auto-draft', 'inherit'].includes(item.status));
    // Both files come from the same site: a post the first export already brought is not made twice.
    const imported = await importedEntries(t);
    expect(source.filter((item) => !imported.has(item.id))).toEqual([]);
    expect(blocks.counts).toEqual({ blocks: 4 });
    expect(blocks.alreadyImported).toBe(3 + 7);
    expect(blocks.failed).toEqual([]);
    const entries = await allPages<ImportedEntry>(t, '/content/blocks');
    const bylines = await allPages<{ id: string; userId: string | null }>(t, '/bylines');
    const mine = bylines.find((byline) => byline.userId === user.id)!;
    const before = new Set(sourceItems(siteExport).map((item) => item.id));
    const byMapped = source.filter((item) => item.creator === 'mapped' && !before.has(item.id));
    expect(byMapped).toHaveLength(2);
    expect(entries).toHaveLength(4);
    expect(entries.filter((entry) => entry.primaryBylineId === mine.id).length).toBe(byMapped.length);
    expect(entries.every((entry) => Array.isArray(entry.data.content))).toBe(true);
  });

  it('maps every status of DECISIONS §7, skipping and counting trash, auto-drafts and revisions', async () => {
    const item = (id: number, status: string, type = 'post') =>
      `<item><title>Status ${status}</title><dc:creator>ann</dc:creator><content:encoded><![CDATA[<p>Body ${id}</p>]]></content:encoded><wp:post_id>${id}</wp:post_id>` +
      `<wp:post_date_gmt>2031-05-01 10:00:00</wp:post_date_gmt><wp:post_name>status-${id}</wp:post_name><wp:status>${status}</wp:status><wp:post_type>${type}</wp:post_type></item>`;
    const xml = `<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Statuses</title><link>https://statuses.example</link><wp:wxr_version>1.2</wp:wxr_version>
${item(1, 'publish')}${item(2, 'future')}${item(3, 'draft')}${item(4, 'pending')}${item(5, 'private')}${item(6, 'trash')}${item(7, 'auto-draft')}${item(8, 'inherit', 'revision')}
</channel></rss>`;
    const analysis = expectCreated(await analyze(t, Buffer.from(xml)));
    expect(analysis.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ postType: 'post (trash)', count: 1 }),
        expect.objectContaining({ postType: 'post (auto-draft)', count: 1 }),
        expect.objectContaining({ postType: 'revision', count: 1 }),
      ]),
    );
    await createCollection(t, 'statuses', [{ slug: 'title', type: 'string' }]);
    const { report: statuses } = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, postTypeMappings: { post: { collection: 'statuses' } } }));
    expect(statuses.counts).toEqual({ statuses: 5 });
    expect(statuses.skipped).toEqual(
      expect.arrayContaining([
        { reason: 'status trash is not imported', count: 1, items: [{ sourceId: '6', title: 'Status trash' }] },
        { reason: 'status auto-draft is not imported', count: 1, items: [{ sourceId: '7', title: 'Status auto-draft' }] },
        expect.objectContaining({ reason: expect.stringMatching(/^revision: /), count: 1 }),
      ]),
    );
    expect(statuses.warnings).toEqual([expect.objectContaining({ sourceId: '5', message: 'private in the source: imported as a draft' })]);
    const bySlug = new Map((await allPages<ImportedEntry>(t, '/content/statuses')).map((entry) => [entry.slug, entry]));
    expect([1, 2, 3, 4, 5].map((id) => bySlug.get(`status-${id}`)?.status)).toEqual(['published', 'scheduled', 'draft', 'draft', 'draft']);
    expect(bySlug.get('status-2')!.scheduledAt).toBe('2031-05-01T10:00:00.000Z');
  });

  it('sets byline credits through content writes', async () => {
    const guest = expectCreated(await request('POST', '/bylines', { displayName: 'Guest Writer' })).item;
    const other = expectCreated(await request('POST', '/bylines', { displayName: 'Guest Writer' })).item;
    expect(other.slug).toBe('guest-writer-2');
    const entry = expectCreated(await request('POST', '/content/posts', { data: { title: 'Credited' }, bylines: [other.id, guest.id] })).item;
    expect(entry).toMatchObject({ bylines: [other.id, guest.id], primaryBylineId: other.id });
    const changed = expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { bylines: [guest.id] })).item;
    expect(changed).toMatchObject({ bylines: [guest.id], primaryBylineId: guest.id });
    const cleared = expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { bylines: [] })).item;
    expect(cleared.bylines).toBeUndefined();
    expectError(await request('PUT', `/content/posts/${entry.id}`, { bylines: ['01NOSUCHBYLINE'] }), 400, 'VALIDATION_ERROR');
    expectError(await request('PUT', `/content/posts/${entry.id}`, { bylines: [guest.id, guest.id] }), 400, 'VALIDATION_ERROR');
    expect(expectSuccess(await request('GET', `/bylines/${guest.id}`)).item).toEqual(guest);
    expectError(await request('GET', '/bylines/01NOSUCHBYLINE'), 404, 'NOT_FOUND');
  });
});
