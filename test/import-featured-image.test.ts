import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { finishedJob } from './support/import-checks.ts';
import { startMediaFixtures, type MediaFixtureServer } from './support/media-fixtures.ts';
import { tinyPng } from './support/media.ts';
import { analyze } from './support/wxr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/** A post whose featured image is an attachment with alt text and a caption, served by `origin`. */
function exportWith(origin: string): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Featured site</title><link>${origin}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${origin}</wp:base_site_url><wp:base_blog_url>${origin}</wp:base_blog_url>
<item><title>Cover story</title><dc:creator>admin</dc:creator><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>cover-story</wp:post_name>
<wp:post_date_gmt>2024-01-02 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<p>No image in the text.</p>]]></content:encoded>
<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>21</wp:meta_value></wp:postmeta></item>
<item><title>Cover</title><wp:post_id>21</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>cover</wp:post_name><wp:post_parent>1</wp:post_parent>
<excerpt:encoded><![CDATA[The harbour at dawn]]></excerpt:encoded><wp:attachment_url>${origin}/uploads/cover.png</wp:attachment_url>
<wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[Boats in a harbour]]></wp:meta_value></wp:postmeta></item>
</channel></rss>`);
}

/** Issue 34: a featured image is kept without downloading media, as its original URL, and points at the library once the media are imported. */
describe('WordPress import: featured images without media', () => {
  let t: TestApp;
  let site: MediaFixtureServer;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });

  beforeAll(async () => {
    site = await startMediaFixtures();
    site.serve('/uploads/cover.png', await tinyPng('#00f', 20, 10));
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it('keeps the original URL, alt text and caption, then the later media import points it at the library file', async () => {
    const analysis = expectCreated(await analyze(t, exportWith(site.origin)));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
    const job = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMedia: false } }));
    expect(job.report.media).toMatchObject({ attachments: 1, featuredImages: 1 });
    const original = `${site.origin}/uploads/cover.png`;
    expect(expectSuccess(await request('GET', '/content/posts/cover-story')).item.data.featured_image).toEqual({ url: original, alt: 'Boats in a harbour', caption: 'The harbour at dawn' });
    expect(site.hits.get('/uploads/cover.png')).toBeUndefined();

    const result = expectSuccess(await request('POST', '/import/legacy/media', { attachments: [{ id: '21', url: original }] }));
    expect(result).toMatchObject({ downloaded: 1, rewritten: { entries: 1 } });
    const [item] = expectSuccess(await request('GET', '/media')).items as Json[];
    const featured = expectSuccess(await request('GET', '/content/posts/cover-story')).item.data.featured_image;
    expect(featured).toMatchObject({ url: item!.url, alt: 'Boats in a harbour', caption: 'The harbour at dawn' });
    // The library's file URL names the item: the post is listed among its uses.
    const uses = expectSuccess(await request('GET', `/media/${item!.id}/usage`)).items as Json[];
    expect(uses.map((use) => [use.slug, use.fields])).toEqual([['cover-story', ['featured_image']]]);
  });
});
