import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from '../support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from '../support/harness.ts';
import { expectMediaMoved, expectMenusAsInSource, expectPageParents, expectStatusesAndDates, expectTermsAsInSource, finishedJob, type ImportedEntry, type ImportedTerm } from '../support/import-checks.ts';
import { startMediaFixtures, type MediaFixtureServer } from '../support/media-fixtures.ts';
import { distinctPng, multipart } from '../support/media.ts';
import { allPages, analyze, attachmentPaths, blockTestData, importedEntries, sourceItems, themeUnitTest, withMediaAt } from '../support/wxr.ts';
import fs from 'node:fs';


/**
 * The WordPress import end to end through the API (issue 15) on WordPress's own test data (the
 * fidelity suite; test/import.test.ts checks the same on a generated site): the theme unit test and block
 * test data analysed, prepared and imported, then checked against the source files themselves:
 * statuses and dates, every page parent, category parent, term assignment and menu item. Its media
 * are served by a loopback fixture server standing in for the public one, and downloaded in the job.
 */
describe('WordPress import through the API, on the theme unit test and block test data', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  let report: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the report as JSON
  let jobId: string;
  let collisionId: string;
  let site: MediaFixtureServer;

  beforeAll(async () => {
    site = await startMediaFixtures();
    for (const [index, path] of attachmentPaths(themeUnitTest).entries()) site.serve(path, await distinctPng(index));
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
    // A post the site already has, whose slug the import will want: renamed with a suffix, and a warning.
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    collisionId = (await createEntry(t, 'posts', { data: { title: 'Mine' }, slug: 'wp-6-1-font-size-scale' })).id;

    const analysis = expectCreated(await analyze(t, withMediaAt(themeUnitTest, site.origin)));
    expect(analysis).toMatchObject({ source: 'wxr', site: { title: 'Theme Unit Test Data', url: 'https://wpthemetestdata.wordpress.com' }, version: '1.2' });
    const types = Object.fromEntries(analysis.postTypes.map((type: { name: string }) => [type.name, type]));
    expect(types.post).toMatchObject({ count: 58, status: 'add_fields', collection: 'posts' });
    expect(types.page).toMatchObject({ count: 21, status: 'new_collection', collection: 'pages' });
    expect(types.page.fieldsToAdd.map((field: { slug: string }) => field.slug)).toEqual(expect.arrayContaining(['title', 'content', 'parent', 'menu_order']));
    expect(analysis.attachments).toEqual({ images: 35, video: 1, audio: 1, other: 0 });
    expect(analysis.taxonomies).toEqual(
      expect.arrayContaining([
        { name: 'category', target: 'category', hierarchical: true, terms: 68 },
        { name: 'post_tag', target: 'tag', hierarchical: false, terms: 114 },
      ]),
    );
    expect(analysis.menus.map((menu: { name: string }) => menu.name).sort()).toEqual(['all-pages', 'all-pages-flat', 'empty-menu', 'short', 'social-menu', 'testing-menu']);
    expect(analysis.comments).toBe(33);
    expect(analysis.authors.map((author: { login: string }) => author.login)).toEqual(expect.arrayContaining(['themedemos', 'themereviewteam']));

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
  });

  it('imports every post and page, with the report of DECISIONS §7', async () => {
    expect(report.counts).toEqual({ posts: 58, pages: 21 });
    expect(report.failed).toEqual([]);
    expect(report.skipped).toEqual([]);
    // The theme unit test's conversation: 33 comments, three of them held.
    expect(report.comments).toEqual({ approved: 30, pending: 3, spam: 0, trash: 0 });
    expect(report.terms).toBe(191);
    expect(report.menus).toBe(6);
    expect(report.menuItems).toBe(70);
    expect(report.media).toMatchObject({ attachments: 37, featuredImages: 6 });
    expect(report.media.downloads).toMatchObject({ total: 37, downloaded: 37, failed: 0, failures: [] });
    expect(report.media.pending).toBeUndefined();
    expect(report.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ message: 'slug wp-6-1-font-size-scale was taken in posts; renamed to wp-6-1-font-size-scale-2' })]));
    expect(expectSuccess(await request('GET', `/content/posts/${collisionId}`)).item.data.title).toBe('Mine');
  });

  it('downloads the media in the job, each file once, and leaves no entry pointing at the old media site', async () => {
    expect(await expectMediaMoved(t, site, themeUnitTest)).toHaveLength(6);
  });

  it('maps statuses and keeps dates', async () => {
    await expectStatusesAndDates(t, themeUnitTest);
  });

  it('keeps every page parent', async () => {
    expect(await expectPageParents(t, themeUnitTest)).toBeGreaterThan(5);
  });

  it('keeps every category parent and every term assignment', async () => {
    expect(await expectTermsAsInSource(t, themeUnitTest)).toBeGreaterThan(100);
  });

  it('keeps every menu item, with its nesting and its target', async () => {
    const menus = await expectMenusAsInSource(t, themeUnitTest);
    expect(menus.length).toBeGreaterThan(0);
    expectSuccess(await request('GET', '/menus/empty-menu'));
  });

  it('credits bylines: guests by source author, reused, the first primary', async () => {
    const bylines = await allPages<{ id: string; displayName: string; userId: string | null }>(t, '/bylines');
    const buster = bylines.find((byline) => byline.displayName === 'Theme Buster')!;
    expect(buster.userId).toBeNull();
    const posts = await allPages<ImportedEntry>(t, '/content/posts');
    const credited = posts.filter((post) => post.primaryBylineId === buster.id);
    expect(credited.length).toBe(sourceItems(themeUnitTest).filter((item) => item.type === 'post' && item.creator === 'themedemos').length);
    expect(credited[0]!.bylines).toEqual([buster.id]);
  });

  it('follows the job as NDJSON, ending with the report', async () => {
    const response = await request('GET', `/import/jobs/${jobId}/progress`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = String(response.body).trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ id: jobId, state: 'succeeded', progress: { phase: 'done' }, report: { counts: { posts: 58, pages: 21 } } });
  });

  it('duplicates nothing when the same export is imported again', async () => {
    const analysis = expectCreated(await analyze(t, themeUnitTest));
    const { report: second } = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: {} }));
    expect(second.counts).toEqual({});
    expect(second.alreadyImported).toBe(58 + 21 + 70 + 37);
    expect((await allPages<ImportedEntry>(t, '/content/posts')).length).toBe(59);
    expect((await allPages<ImportedEntry>(t, '/content/pages')).length).toBe(21);
    expect((await allPages<ImportedTerm>(t, '/taxonomies/category/terms')).length).toBe(68);
    expect((await allPages<unknown>(t, '/bylines')).length).toBe(3);
  });

  it('imports the block test data in one request (form A), users mapped to authors', async () => {
    const user = (await t.userWithToken(40, ['content:read'], 'block-author@example.com')).user;
    const config = JSON.stringify({ postTypeMappings: { post: { collection: 'blocks' }, page: { collection: 'blocks' } }, authorMapping: { themereviewer: user.id } });
    // A mapping to a collection that does not exist is refused before anything is stored.
    const { body, contentType } = await multipart({ config, file: { bytes: fs.readFileSync(blockTestData), filename: 'blocks.xml' } });
    expectError(await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, rawBody: body, headers: { 'content-type': contentType } }), 400, 'VALIDATION_ERROR');
    await createCollection(t, 'blocks', [{ slug: 'title', type: 'string' }]);
    const { report: blocks } = finishedJob(await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, rawBody: body, headers: { 'content-type': contentType } }));
    const source = sourceItems(blockTestData).filter((item) => ['post', 'page'].includes(item.type) && !['trash', 'auto-draft', 'inherit'].includes(item.status));
    // Both files come from the same site: a post the theme unit test already brought is not made twice.
    const imported = await importedEntries(t);
    expect(source.filter((item) => !imported.has(item.id))).toEqual([]);
    expect(blocks.counts.blocks).toBeGreaterThan(source.length - 3);
    expect(blocks.failed).toEqual([]);
    const entries = await allPages<ImportedEntry>(t, '/content/blocks');
    const bylines = await allPages<{ id: string; userId: string | null }>(t, '/bylines');
    const mine = bylines.find((byline) => byline.userId === user.id)!;
    const before = new Set(sourceItems(themeUnitTest).map((item) => item.id));
    const byMapped = source.filter((item) => item.creator === 'themereviewer' && !before.has(item.id));
    expect(entries.filter((entry) => entry.primaryBylineId === mine.id).length).toBe(byMapped.length);
    expect(entries.every((entry) => Array.isArray(entry.data.content))).toBe(true);
  });
});
