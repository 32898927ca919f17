import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { startMediaFixtures, type MediaFixtureServer } from './support/media-fixtures.ts';
import { tinyPng } from './support/media.ts';
import { analyze } from './support/wxr.ts';

const old = 'old.example.com/wp-content/uploads/2024/01';
/**
 * Where the featured image's attachment is: an address this app may not reach, so the import's media
 * phase fetches nothing (the guard refuses it) and leaves the image there, for the map to rewrite.
 */
const unreachable = 'http://127.0.0.1:9/wp-content/uploads/2024/01';

/** Content with an old media URL in every place one can be, each spelled another way WordPress spells it. */
const content = `
<!-- wp:image {"id":21,"sizeSlug":"medium"} --><figure class="wp-block-image size-medium"><img src="https://www.${old}/a-300x200.jpg" alt="" class="wp-image-21"/></figure><!-- /wp:image -->
<!-- wp:paragraph --><p>See <a href="http://${old}/a.jpg?ver=2">the photo</a>, <a href="https://other.example.com/wp-content/uploads/2024/01/a.jpg">a copy elsewhere</a> and <a href="https://old.example.com/about/">about</a>.</p><!-- /wp:paragraph -->
<!-- wp:gallery {"linkTo":"none"} --><figure class="wp-block-gallery has-nested-images"><!-- wp:image {"id":22} --><figure class="wp-block-image"><img src="https://${old}/b-scaled.jpg" class="wp-image-22"/></figure><!-- /wp:image --></figure><!-- /wp:gallery -->
<!-- wp:cover {"url":"https://${old}/c-1024x683.jpg","id":23} --><div class="wp-block-cover"><img class="wp-block-cover__image-background wp-image-23" src="https://${old}/c-1024x683.jpg" data-object-fit="cover"/><div class="wp-block-cover__inner-container"><!-- wp:paragraph --><p>Cover</p><!-- /wp:paragraph --></div></div><!-- /wp:cover -->
<!-- wp:file {"id":24,"href":"https://${old}/doc.pdf"} --><div class="wp-block-file"><a href="https://${old}/doc.pdf">doc</a><a href="https://${old}/doc.pdf" class="wp-block-file__button" download>Download</a></div><!-- /wp:file -->
<!-- wp:audio {"id":25} --><figure class="wp-block-audio"><audio controls src="https://${old}/song.mp3"></audio></figure><!-- /wp:audio -->
<!-- wp:video {"id":26} --><figure class="wp-block-video"><video controls src="https://${old}/clip.mp4"></video></figure><!-- /wp:video -->
<!-- wp:media-text {"mediaId":27,"mediaType":"image"} --><div class="wp-block-media-text"><figure class="wp-block-media-text__media"><img src="https://${old}/d-rotated.jpg" class="wp-image-27"/></figure><div class="wp-block-media-text__content"><!-- wp:paragraph --><p>Text</p><!-- /wp:paragraph --></div></div><!-- /wp:media-text -->
<!-- wp:block {"ref":30} /-->`;

function exportFile(): string {
  const attachment = (id: number, file: string) =>
    `<item><title>${file}</title><wp:post_id>${id}</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>f${id}</wp:post_name><wp:attachment_url>${unreachable}/${file}</wp:attachment_url></item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old site</title><link>https://old.example.com</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>https://old.example.com</wp:base_site_url><wp:base_blog_url>https://old.example.com</wp:base_blog_url>
  <item><title>Every block</title><dc:creator>admin</dc:creator><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>every-block</wp:post_name>
    <wp:post_date_gmt>2024-01-02 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[${content}]]></content:encoded>
    <wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>21</wp:meta_value></wp:postmeta></item>
  <item><title>Logo block</title><wp:post_id>30</wp:post_id><wp:post_type>wp_block</wp:post_type><wp:status>publish</wp:status><wp:post_name>logo</wp:post_name>
    <content:encoded><![CDATA[<!-- wp:image {"id":28} --><figure class="wp-block-image"><img src="https://${old}/e-150x150.png"/></figure><!-- /wp:image -->]]></content:encoded></item>
  ${attachment(21, 'a.jpg')}
</channel></rss>`;
}

const files = ['a.jpg', 'b.jpg', 'c.jpg', 'doc.pdf', 'song.mp3', 'clip.mp4', 'd.jpg', 'e.png'];
const newUrl = (file: string) => `https://cdn.new.example/media/${file}`;

describe('WordPress import: URL rewrite', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const imported = async () => {
    const entry = expectSuccess(await request('GET', '/content/posts/every-block')).item;
    const section = expectSuccess(await request('GET', '/sections/logo')).item;
    return JSON.stringify([entry.data, section.content]);
  };

  beforeAll(async () => {
    t = await createTestApp();
    const analysis = expectCreated(await analyze(t, Buffer.from(exportFile())));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
    const done = expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMedia: true } })).item;
    expect(done.state).toBe('succeeded');
    expect(done.report.media.downloads).toMatchObject({ failed: 1, failures: [{ id: '21', error: expect.stringMatching(/not a public address/) }] });
  });
  afterAll(() => t.close());

  it('rewrites every block kind, link, featured image and section, whatever size, scheme, www. or query the URL had', async () => {
    const before = await imported();
    const oldMedia = /(old\.example\.com|127\.0\.0\.1:9)\/wp-content/g;
    const occurrences = before.match(oldMedia)?.length ?? 0;
    // Every place is there to rewrite: image, link, gallery, cover, file, audio, video, media-text, section, featured image.
    expect(occurrences).toBeGreaterThanOrEqual(11);
    const urlMap = { ...Object.fromEntries(files.map((file) => [`http://${old}/${file}`, newUrl(file)])), [`${unreachable}/a.jpg`]: newUrl('a.jpg') };
    const result = expectSuccess(await request('POST', '/import/legacy/rewrite-urls', { urlMap }));
    expect(result).toEqual({ entries: 1, sections: 1, urls: occurrences });

    const after = await imported();
    expect(after).not.toMatch(oldMedia);
    for (const file of files) expect(after).toContain(newUrl(file));
    // Not the site's media: left alone.
    expect(after).toContain('https://other.example.com/wp-content/uploads/2024/01/a.jpg');
    expect(after).toContain('https://old.example.com/about/');
    const entry = expectSuccess(await request('GET', '/content/posts/every-block')).item;
    expect(JSON.stringify(entry.data.featured_image)).toContain(newUrl('a.jpg'));

    // Again: nothing left to change.
    expect(expectSuccess(await request('POST', '/import/legacy/rewrite-urls', { urlMap }))).toEqual({ entries: 0, sections: 0, urls: 0 });
  });

  it('refuses a urlMap that is not an object of URLs (400), and needs an admin (401, 403)', async () => {
    const bad: unknown[] = [{ urlMap: ['http://a.example/x.jpg'] }, { urlMap: { 'not a url': 'https://b.example/x.jpg' } }, { urlMap: { 'http://a.example/x.jpg': 42 } }, { urlMap: { 'http://a.example/x.jpg': 'javascript:alert(1)' } }, { urlMap: 'http://a.example/x.jpg' }];
    for (const body of bad) {
      const response = await request('POST', '/import/legacy/rewrite-urls', body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(issuePaths(response).some((path) => path.startsWith('urlMap'))).toBe(true);
    }
    const editor = (await t.userWithToken(40, ['content:read', 'content:write', 'media:write'])).token;
    expectError(await request('POST', '/import/legacy/rewrite-urls', { urlMap: {} }, null), 401, 'UNAUTHORIZED');
    expectError(await request('POST', '/import/legacy/rewrite-urls', { urlMap: {} }, editor), 403, 'FORBIDDEN');
  });
});

describe('WordPress import with media: no entry points at the old media', () => {
  let t: TestApp;
  let site: MediaFixtureServer;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });

  beforeAll(async () => {
    site = await startMediaFixtures();
    site.serve('/wp-content/uploads/2024/01/a.png', await tinyPng('#a00', 30, 20));
    site.serve('/wp-content/uploads/2024/01/b.png', await tinyPng('#0a0', 30, 20));
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it('rewrites the imported entries with the files the import job downloaded', async () => {
    const uploads = `${site.origin}/wp-content/uploads/2024/01`;
    const body = `<!-- wp:image {"id":21} --><figure class="wp-block-image"><img src="${uploads}/a-300x200.png"/></figure><!-- /wp:image --><!-- wp:gallery --><figure class="wp-block-gallery"><!-- wp:image {"id":22} --><figure class="wp-block-image"><img src="${uploads}/b.png?w=100"/></figure><!-- /wp:image --></figure><!-- /wp:gallery -->`;
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Loopback site</title><link>${site.origin}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site.origin}</wp:base_site_url>
  <item><title>Pictures</title><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>pictures</wp:post_name><wp:post_date_gmt>2024-01-02 10:00:00</wp:post_date_gmt>
    <content:encoded><![CDATA[${body}]]></content:encoded><wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>22</wp:meta_value></wp:postmeta></item>
  <item><title>a</title><wp:post_id>21</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>a</wp:post_name><wp:attachment_url>${uploads}/a.png</wp:attachment_url></item>
  <item><title>b</title><wp:post_id>22</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>b</wp:post_name><wp:attachment_url>${uploads}/b.png</wp:attachment_url></item>
</channel></rss>`;
    const analysis = expectCreated(await analyze(t, Buffer.from(file)));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
    const { media } = expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMedia: true } })).item.report;
    expect(media.downloads).toMatchObject({ downloaded: 2, failed: 0, rewritten: { entries: 1, sections: 0 } });
    expect(media.downloads.rewritten.urls).toBeGreaterThanOrEqual(3);
    expect(media.pending).toBeUndefined();
    const entry = expectSuccess(await request('GET', '/content/posts/pictures')).item;
    const text = JSON.stringify(entry.data);
    expect(text).not.toContain(site.origin);
    const items = expectSuccess(await request('GET', '/media')).items as { url: string }[];
    expect(items).toHaveLength(2);
    // By path: the job writes the deployment's base URL, a request answers with its own host.
    for (const { url } of items) expect(text).toContain(new URL(url).pathname);

    // The map stored with the downloads serves a later rewrite without a body.
    expect(expectSuccess(await request('POST', '/import/legacy/rewrite-urls', {}))).toEqual({ entries: 0, sections: 0, urls: 0 });
  });
});
