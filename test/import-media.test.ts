import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { startMediaFixtures, type MediaFixtureServer } from './support/media-fixtures.ts';
import { getFile, sha256, testImage, tinyPng, uploadMedia } from './support/media.ts';
import { analyze } from './support/wxr.ts';

/** A small export whose attachments live on the fixture server, with titles, alt text and captions. */
function exportWith(origin: string): string {
  const attachment = (id: number, path: string, title: string, alt: string, caption: string) => `
    <item><title>${title}</title><wp:post_id>${id}</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status>
      <wp:post_name>a${id}</wp:post_name><wp:post_parent>1</wp:post_parent><wp:attachment_url>${origin}${path}</wp:attachment_url>
      <excerpt:encoded><![CDATA[${caption}]]></excerpt:encoded><content:encoded><![CDATA[]]></content:encoded>
      <wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[${alt}]]></wp:meta_value></wp:postmeta></item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Media site</title><link>${origin}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${origin}</wp:base_site_url><wp:base_blog_url>${origin}</wp:base_blog_url>
  <item><title>Hello</title><dc:creator>admin</dc:creator><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>hello</wp:post_name>
    <wp:post_date_gmt>2024-01-02 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<!-- wp:image {"id":11} --><figure class="wp-block-image"><img src="${origin}/uploads/red.png" alt="Red"/></figure><!-- /wp:image -->]]></content:encoded>
    <wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>11</wp:meta_value></wp:postmeta></item>
  ${attachment(11, '/uploads/red.png', 'Red square', 'A red square', 'Seen at noon')}
  ${attachment(12, '/uploads/red-copy.png', 'Red again', 'The same red square', '')}
  ${attachment(13, '/uploads/missing.png', 'Gone', '', '')}
</channel></rss>`;
}

describe('WordPress import: media', () => {
  let t: TestApp;
  let site: MediaFixtureServer;
  let red: Buffer;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const ndjson = (response: { bytes: Buffer }) => response.bytes.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any -- lines as JSON

  beforeAll(async () => {
    site = await startMediaFixtures();
    red = await tinyPng('#f00', 40, 30);
    site.serve('/uploads/red.png', red);
    site.serve('/uploads/red-copy.png', red);
    site.serve('/uploads/photo.jpg', await testImage(64, 48), 'image/jpeg', 1);
    site.serve('/uploads/big.png', await testImage(400, 400, 'png'));
    t = await createTestApp({
      OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true',
      IMPORT_MEDIA_TIMEOUT_MS: '300',
      IMPORT_MEDIA_RETRIES: '2',
      IMPORT_MEDIA_RETRY_DELAY_MS: '10',
      MEDIA_UPLOAD_LIMIT: '100000',
    });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it('downloads the attachments an import recorded, streaming a line per file, with their titles, alt text and captions', async () => {
    const analysis = expectCreated(await analyze(t, Buffer.from(exportWith(site.origin))));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
    const job = expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMedia: false } })).item;
    expect(job.state).toBe('succeeded');

    const pending = [
      { id: '11', url: `${site.origin}/uploads/red.png` },
      { id: '12', url: `${site.origin}/uploads/red-copy.png` },
      { id: '13', url: `${site.origin}/uploads/missing.png` },
    ];
    const response = await request('POST', '/import/legacy/media', { attachments: pending, stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = ndjson(response);
    const files = lines.filter((line) => line.type === 'file');
    expect(files.map((line) => line.current).sort()).toEqual([1, 2, 3]);
    for (const line of files) expect(line).toMatchObject({ total: 3, filename: expect.any(String), status: expect.any(String) });
    const byId = new Map(files.map((line) => [line.id, line]));
    expect(byId.get('13')).toMatchObject({ status: 'failed', filename: 'missing.png', error: expect.stringMatching(/404/) });
    // The same bytes at two URLs: one item.
    expect(new Set([byId.get('11')!.status, byId.get('12')!.status])).toEqual(new Set(['downloaded', 'reused']));
    expect(byId.get('11')!.mediaId).toBe(byId.get('12')!.mediaId);

    const result = lines.at(-1)!;
    expect(result).toMatchObject({ type: 'result', total: 3, downloaded: 1, reused: 1, failed: 1, failures: [{ id: '13', url: pending[2]!.url, error: expect.stringMatching(/404/) }] });
    expect(Object.keys(result.urlMap).sort()).toEqual([pending[0]!.url, pending[1]!.url].sort());

    const item = expectSuccess(await request('GET', `/media/${byId.get('11')!.mediaId}`)).item;
    expect(item).toMatchObject({ mimeType: 'image/png', width: 40, height: 30, contentHash: sha256(red) });
    // The first of the two to finish made the item; whichever it was, its record's metadata is on it.
    expect([
      { title: 'Red square', alt: 'A red square', caption: 'Seen at noon' },
      { title: 'Red again', alt: 'The same red square', caption: null },
    ]).toContainEqual({ title: item.title, alt: item.alt, caption: item.caption });
    expect(result.urlMap[pending[0]!.url]).toBe(item.url);
    expect((await getFile(t, item.url)).bytes.equals(red)).toBe(true);
  });

  it('answers the result alone without stream, and a second run downloads nothing again', async () => {
    const before = site.hits.get('/uploads/red.png') ?? 0;
    // The envelope every endpoint answers with; only the stream has lines of its own (issue 29).
    const result = expectSuccess(await request('POST', '/import/legacy/media', { attachments: [{ id: 11, url: `${site.origin}/uploads/red.png` }] }));
    expect(result).toMatchObject({ type: 'result', total: 1, existing: 1, downloaded: 0 });
    expect(site.hits.get('/uploads/red.png')).toBe(before);
  });

  it('keeps an image the library already had once', async () => {
    const bytes = await tinyPng('#0f0', 10, 10);
    const uploaded = await uploadMedia(t, bytes, { filename: 'green.png' });
    site.serve('/uploads/green.png', bytes);
    const result = expectSuccess(await request('POST', '/import/legacy/media', { attachments: [{ id: 'g', url: `${site.origin}/uploads/green.png` }] }));
    expect(result).toMatchObject({ reused: 1, urlMap: { [`${site.origin}/uploads/green.png`]: uploaded.url } });
  });

  it('tries again after a 503, and marks a timeout, an HTML page and a file over the limit for manual handling while the rest go on', async () => {
    const attachments = [
      { id: 'photo', url: `${site.origin}/uploads/photo.jpg` },
      { id: 'hang', url: `${site.origin}/hang/slow.jpg` },
      { id: 'page', url: `${site.origin}/page/image.jpg` },
      { id: 'big', url: `${site.origin}/uploads/big.png` },
    ];
    const result = expectSuccess(await request('POST', '/import/legacy/media', { attachments }));
    expect(result).toMatchObject({ downloaded: 1, failed: 3 });
    expect(site.hits.get('/uploads/photo.jpg')).toBe(2);
    // A timeout is tried again (three attempts in all); an HTML page is final at once.
    expect(site.hits.get('/hang/slow.jpg')).toBe(3);
    expect(site.hits.get('/page/image.jpg')).toBe(1);
    const errors = Object.fromEntries(result.failures.map((failure: { id: string; error: string }) => [failure.id, failure.error]));
    expect(errors).toEqual({ hang: expect.stringMatching(/300 ms/), page: expect.stringMatching(/HTML page/), big: expect.stringMatching(/larger than/) });
  });

  it('refuses input that is not a list of http(s) URLs (400), and needs an admin (401, 403)', async () => {
    const bad: [unknown, string][] = [
      [{ attachments: [{ id: '1', url: 'not a url' }] }, 'attachments.0.url'],
      [{ attachments: [{ id: '1', url: 'file:///etc/passwd' }] }, 'attachments.0.url'],
      [{ attachments: [] }, 'attachments'],
      [{ attachments: [{ id: '1' }] }, 'attachments.0.url'],
      [{ attachments: [{ id: '1', url: `${site.origin}/x.png` }], stream: 'yes' }, 'stream'],
    ];
    for (const [body, path] of bad) {
      const response = await request('POST', '/import/legacy/media', body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(issuePaths(response)).toContain(path);
    }
    const editor = (await t.userWithToken(40, ['content:read', 'content:write', 'media:write'])).token;
    const body = { attachments: [{ id: '1', url: `${site.origin}/uploads/red.png` }] };
    expectError(await request('POST', '/import/legacy/media', body, null), 401, 'UNAUTHORIZED');
    expectError(await request('POST', '/import/legacy/media', body, editor), 403, 'FORBIDDEN');
  });
});

describe('WordPress import: media, guarded and within the quota', () => {
  let site: MediaFixtureServer;
  const pictures: Buffer[] = [];

  beforeAll(async () => {
    site = await startMediaFixtures();
    for (let index = 0; index < 4; index++) {
      pictures.push(await testImage(40 + index, 40, 'jpeg'));
      site.serve(`/uploads/${index}.jpg`, pictures[index]!, 'image/jpeg');
    }
  });
  afterAll(() => site.close());

  it('refuses a private address when the deployment does not allow them: that file fails, nothing is fetched', async () => {
    const t = await createTestApp();
    try {
      const result = expectSuccess(await t.request('POST', `${api}/import/legacy/media`, { token: t.adminToken, body: { attachments: [{ id: '1', url: `${site.origin}/uploads/0.jpg` }] } }));
      expect(result).toMatchObject({ failed: 1, failures: [{ id: '1', error: expect.stringMatching(/not a public address/) }] });
      expect(site.hits.size).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('stops at the storage quota and shows the usage', async () => {
    // Room for the first picture and not for a second.
    const quota = Math.floor(pictures[0]!.length * 1.5);
    expect(pictures.every((picture) => picture.length < quota && pictures[0]!.length + picture.length > quota)).toBe(true);
    const t = await createTestApp({ MEDIA_STORAGE_QUOTA: String(quota), IMPORT_MEDIA_CONCURRENCY: '1', OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
    try {
      const attachments = pictures.map((_picture, index) => ({ id: String(index), url: `${site.origin}/uploads/${index}.jpg` }));
      const response = await t.request('POST', `${api}/import/legacy/media`, { token: t.adminToken, body: { attachments, stream: true } });
      const lines = response.bytes.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any -- lines as JSON
      const result = lines.at(-1)!;
      expect(result).toMatchObject({ downloaded: 1, skipped: 3, stopped: { reason: 'quota', usage: { usedBytes: pictures[0]!.length, quotaBytes: quota } } });
      expect(result.stopped.message).toMatch(new RegExp(`quota of ${quota} bytes`));
      expect(lines.filter((line) => line.status === 'skipped')).toHaveLength(3);
      const media = await t.db.kysely.selectFrom('media').select('size').execute();
      expect(media.map((row) => Number(row.size))).toEqual([pictures[0]!.length]);
    } finally {
      await t.close();
    }
  });
});
