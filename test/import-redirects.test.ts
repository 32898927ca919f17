import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { finishedJob } from './support/import-checks.ts';
import { analyze } from './support/wxr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

const oldSlug = (slug: string) => `<wp:postmeta><wp:meta_key><![CDATA[_wp_old_slug]]></wp:meta_key><wp:meta_value><![CDATA[${slug}]]></wp:meta_value></wp:postmeta>`;

/** A post of the old site at `link` (none when empty); `inside` holds its meta. */
const post = (id: number, slug: string, status: string, link: string, inside = '') =>
  `<item><title>${slug}</title>${link ? `<link>${link}</link>` : ''}<dc:creator>ann</dc:creator><wp:post_id>${id}</wp:post_id><wp:post_type>post</wp:post_type>` +
  `<wp:status>${status}</wp:status><wp:post_name>${slug}</wp:post_name><wp:post_date_gmt>2024-03-01 10:00:00</wp:post_date_gmt>` +
  `<content:encoded><![CDATA[<p>${slug}</p>]]></content:encoded>${inside}</item>`;

const exportFile = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old</title><link>https://old.example</link><wp:wxr_version>1.2</wp:wxr_version>
${post(1, 'hello-world', 'publish', 'https://old.example/2024/03/hello-world/', oldSlug('hello') + oldSlug('hi-there'))}
${post(2, 'taken-slug', 'publish', 'https://old.example/taken-slug/')}
${post(3, 'same-place', 'publish', 'https://old.example/blog/same-place/')}
${post(4, 'draft-post', 'draft', 'https://old.example/?p=4', oldSlug('old-draft'))}
${post(5, 'no-link', 'publish', '', oldSlug('earlier-no-link'))}
${post(6, 'legacy', 'publish', 'https://old.example/archives/legacy.html')}
</channel></rss>`);

/**
 * Issue 34: an imported entry's old addresses (its WordPress link, its `_wp_old_slug` values) lead to
 * its new one, counted in the report; importing the file again adds none.
 */
describe('WordPress import: redirects from the old addresses', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });

  async function imported(): Promise<Json> {
    const analysis = expectCreated(await analyze(t, exportFile));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'articles', enabled: true }] }));
    const job = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, postTypeMappings: { post: { collection: 'articles' } } }));
    expect(job.report.failed).toEqual([]);
    return job.report;
  }
  const importedRedirects = async (): Promise<Json[]> => expectSuccess(await request('GET', '/redirects?source=import&limit=100')).items;
  const entryId = async (slug: string): Promise<string> => expectSuccess(await request('GET', `/content/articles/${slug}`)).item.id;

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'articles', [{ slug: 'title', type: 'string' }], { urlPattern: '/blog/{slug}' });
    await createEntry(t, 'articles', { slug: 'taken-slug', data: { title: 'Here first' }, status: 'published' });
  });
  afterAll(() => t.close());

  it('leads the links and earlier slugs of published entries to their new addresses, and counts them', async () => {
    const report = await imported();
    expect(report.redirects).toBe(6);
    const redirects = await importedRedirects();
    expect(Object.fromEntries(redirects.map((redirect) => [redirect.from, redirect.to]))).toEqual({
      '/2024/03/hello-world': '/blog/hello-world',
      '/2024/03/hello': '/blog/hello-world',
      '/2024/03/hi-there': '/blog/hello-world',
      // Its slug was taken here: renamed.
      '/taken-slug': '/blog/taken-slug-2',
      // No link in the export: the earlier slug where the new pattern puts it.
      '/blog/earlier-no-link': '/blog/no-link',
      '/archives/legacy.html': '/blog/legacy',
    });
    const hello = redirects.find((redirect) => redirect.from === '/2024/03/hello')!;
    expect(hello).toMatchObject({ status: 301, source: 'import', entry: { collection: 'articles', id: await entryId('hello-world') }, targetMissing: false });
    expect(expectSuccess(await t.request('GET', `${api}/redirects/lookup?path=${encodeURIComponent('/2024/03/hello/')}`))).toEqual({ to: '/blog/hello-world', status: 301 });
    // The draft had no public address; the one already where it was needs none.
    expectError(await t.request('GET', `${api}/redirects/lookup?path=/blog/old-draft`), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `${api}/redirects/lookup?path=/blog/same-place`), 404, 'NOT_FOUND');
  });

  it('adds no redirect when the same file is imported again', async () => {
    // What a redirect is, not its hits (the lookup above counts one whenever its write lands).
    const shapes = async () => (await importedRedirects()).map(({ id, from, to, updatedAt }) => ({ id, from, to, updatedAt }));
    const before = await shapes();
    const report = await imported();
    expect(report.alreadyImported).toBe(6);
    expect(report.redirects).toBe(0);
    expect(await shapes()).toEqual(before);
  });
});
