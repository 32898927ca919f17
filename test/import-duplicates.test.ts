import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { finishedJob, type ImportedEntry } from './support/import-checks.ts';
import { analyze, importedEntries } from './support/wxr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

const namespaces = 'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/"';

/** A whole item, with its post type, status and date. */
function fullItem(id: number, type: string, title: string, extra = ''): string {
  return `<item><title>${title}</title><dc:creator>ann</dc:creator><wp:post_id>${id}</wp:post_id><wp:post_type>${type}</wp:post_type><wp:status>publish</wp:status>
<wp:post_name>${title.toLowerCase().replaceAll(' ', '-')}</wp:post_name><wp:post_date_gmt>2023-05-06 07:08:09</wp:post_date_gmt><content:encoded><![CDATA[<p>${title} in full</p>]]></content:encoded>${extra}</item>`;
}

/** A stub as real exports hold them (issue 34): a title and a post id, no post type, status or date. */
const stub = (id: number, title: string) => `<item><title>${title}</title><wp:post_id>${id}</wp:post_id></item>`;

const menuLink = (id: number, objectId: number) =>
  fullItem(id, 'nav_menu_item', '', `<category domain="nav_menu" nicename="main"><![CDATA[Main]]></category>
<wp:postmeta><wp:meta_key>_menu_item_type</wp:meta_key><wp:meta_value>post_type</wp:meta_value></wp:postmeta>
<wp:postmeta><wp:meta_key>_menu_item_object</wp:meta_key><wp:meta_value>page</wp:meta_value></wp:postmeta>
<wp:postmeta><wp:meta_key>_menu_item_object_id</wp:meta_key><wp:meta_value>${objectId}</wp:meta_value></wp:postmeta>`);

/**
 * Item 7: a stub, then the whole page later. Item 8: a whole post, then a stub of it. Item 9: a
 * stub alone, which stands for its id. An item with no post id. A menu item linking to item 7.
 */
const duplicatesExport = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" ${namespaces}>
<channel><title>Twins</title><link>https://twins.example</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_login>ann</wp:author_login><wp:author_display_name>Ann</wp:author_display_name></wp:author>
${stub(7, 'About stub')}
${fullItem(8, 'post', 'Hello')}
${stub(9, 'Lonely stub')}
<item><title>No id</title><wp:post_type>post</wp:post_type><wp:status>publish</wp:status></item>
${fullItem(7, 'page', 'About')}
${stub(8, 'Hello stub')}
${menuLink(20, 7)}
</channel></rss>
`);

/**
 * Items that share a post id (issue 34): the complete one is imported, whatever the order, and every
 * other one is in the report's skipped list with the reason; the analysis counts what is imported.
 */
describe('WordPress import: items that share a post id', () => {
  let t: TestApp;
  let analysis: Json;
  let job: Json;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }]);
    analysis = expectCreated(await analyze(t, duplicatesExport));
    job = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMenus: true } }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts in the analysis what the import imports', () => {
    const counts = Object.fromEntries(analysis.postTypes.map((type: Json) => [type.name, type.count]));
    expect(counts).toEqual({ post: 2, page: 1 });
    expect(analysis.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ postType: 'post (partial duplicate)', count: 2 }),
        expect.objectContaining({ postType: 'post (no post id)', count: 1 }),
      ]),
    );
    expect(job.report.counts).toEqual({ posts: 2, pages: 1 });
    // Every item of the file, imported or set aside: what the progress counts up to.
    expect(job.progress).toMatchObject({ phase: 'done', total: 7 });
  });

  it('imports the whole page where a stub came first, with its status and date', async () => {
    const pageId = (await importedEntries(t)).get('7')!;
    const page: ImportedEntry = expectSuccess(await request('GET', `/content/pages/${pageId}`)).item;
    expect(page).toMatchObject({ status: 'published', publishedAt: '2023-05-06T07:08:09.000Z', createdAt: '2023-05-06T07:08:09.000Z', data: { title: 'About' } });
    const posts: ImportedEntry[] = expectSuccess(await request('GET', '/content/posts')).items;
    expect(posts.map((post) => post.data.title).sort()).toEqual(['Hello', 'Lonely stub']);
  });

  it('names every item set aside in the report, with where it is in the file', () => {
    const skipped = job.report.skipped.flatMap((group: Json) => group.items.map((item: Json) => ({ ...item, reason: group.reason })));
    expect(skipped).toEqual(
      expect.arrayContaining([
        { sourceId: '7', title: 'About stub', reason: expect.stringMatching(/^a partial duplicate of item 7 \(<item> number 1 of the file, line 5\): item 7 is imported from <item> number 5 of the file, line 10$/) },
        { sourceId: '8', title: 'Hello stub', reason: expect.stringMatching(/^a partial duplicate of item 8 \(<item> number 6 of the file, line 12\): item 8 is imported from <item> number 2 of the file, line 6$/) },
        { sourceId: '', title: 'No id', reason: expect.stringMatching(/^no post id/) },
      ]),
    );
    expect(skipped).toHaveLength(3);
    expect(job.report.failed).toEqual([]);
  });

  it('points the menu item at the page, not at the stub', async () => {
    const pageId = (await importedEntries(t)).get('7')!;
    const [link] = expectSuccess(await request('GET', '/menus/main')).item.items;
    expect(link).toMatchObject({ referenceCollection: 'pages', referenceId: pageId });
  });

  it('imports nothing twice and sets the same items aside when the import runs again', async () => {
    const again = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMenus: true } }));
    expect(again.report.counts).toEqual({});
    expect(again.report.alreadyImported).toBe(4);
    expect(again.report.skipped.flatMap((group: Json) => group.items.map((item: Json) => item.sourceId)).sort()).toEqual(['', '7', '8']);
  });
});
