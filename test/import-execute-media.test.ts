import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';
import { startMediaFixtures, type MediaFixtureServer } from './support/media-fixtures.ts';
import { distinctPng, testImage, tinyPng, uploadMedia } from './support/media.ts';
import { analyze } from './support/wxr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/** An export of one post that shows every attachment (each in an image block, the first as a size variant) and has the first as its featured image. */
function exportWith(origin: string, attachments: { id: number; path: string }[]): Buffer {
  const blocks = attachments.map(({ id, path }, index) => `<!-- wp:image {"id":${id}} --><figure class="wp-block-image"><img src="${origin}${index === 0 ? path.replace(/\.png$/, '-300x200.png') : path}"/></figure><!-- /wp:image -->`).join('');
  const items = attachments.map(
    ({ id, path }) =>
      `<item><title>f${id}</title><wp:post_id>${id}</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>f${id}</wp:post_name><wp:post_parent>1</wp:post_parent><wp:attachment_url>${origin}${path}</wp:attachment_url></item>`,
  );
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Media site</title><link>${origin}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${origin}</wp:base_site_url><wp:base_blog_url>${origin}</wp:base_blog_url>
  <item><title>Gallery</title><dc:creator>admin</dc:creator><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>gallery</wp:post_name>
    <wp:post_date_gmt>2024-01-02 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[${blocks}]]></content:encoded>
    <wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>${attachments[0]!.id}</wp:meta_value></wp:postmeta></item>
  ${items.join('\n  ')}
</channel></rss>`);
}

/**
 * Analyses, prepares and executes an import of `file` with includeMedia; answers execute's response
 * (`body` adds to execute's, `headers` are its request's).
 */
async function executeImport(t: TestApp, file: Buffer, body: Json = {}, headers: Record<string, string> = {}) {
  const request = (path: string, body: unknown) => t.request('POST', `${api}${path}`, { token: t.adminToken, body, headers });
  const analysis = expectCreated(await analyze(t, file));
  expectSuccess(await request('/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
  return request('/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeMedia: true }, ...body });
}

describe('WordPress import with includeMedia: the job downloads the media', () => {
  let t: TestApp;
  let site: MediaFixtureServer;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const attachments = [
    { id: 11, path: '/uploads/red.png' },
    { id: 12, path: '/uploads/red-copy.png' },
    { id: 13, path: '/uploads/green.png' },
    { id: 14, path: '/uploads/photo.jpg' },
    { id: 15, path: '/uploads/missing.png' },
    { id: 16, path: '/page/chart.png' },
    { id: 17, path: '/hang/slow.png' },
  ];

  beforeAll(async () => {
    site = await startMediaFixtures();
    const red = await tinyPng('#f00', 40, 30);
    site.serve('/uploads/red.png', red);
    site.serve('/uploads/red-copy.png', red);
    site.serve('/uploads/green.png', await tinyPng('#0f0', 10, 10));
    site.serve('/uploads/photo.jpg', await testImage(64, 48), 'image/jpeg', 1);
    // The file that never comes keeps the media phase going for two time limits and a pause: long enough to be seen following the job.
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true', IMPORT_MEDIA_TIMEOUT_MS: '1000', IMPORT_MEDIA_RETRIES: '1', IMPORT_MEDIA_RETRY_DELAY_MS: '200' });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it('downloads each file once, reuses what the library has, rewrites the entry, and marks a 404, an HTML page and a timeout failed', async () => {
    const green = await uploadMedia(t, await tinyPng('#0f0', 10, 10), { filename: 'green.png' });
    // Streamed while it runs: the media phase's lines carry the file each one handled.
    const response = await executeImport(t, exportWith(site.origin, attachments), { stream: true });
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = String(response.body).trim().split('\n').map((line) => JSON.parse(line) as Json);
    const media = lines.filter((line) => line.progress.phase === 'media' && line.progress.file);
    expect(media.length).toBeGreaterThan(0);
    for (const line of media) expect(line.progress).toMatchObject({ total: 7, file: { type: 'file', total: 7, filename: expect.any(String), status: expect.any(String) } });
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ state: 'succeeded', progress: { phase: 'done' } });

    const { downloads, pending } = last.report.media;
    expect(downloads).toMatchObject({ total: 7, downloaded: 2, reused: 2, existing: 0, failed: 3, skipped: 0, rewritten: { entries: 1, sections: 0 } });
    expect(Object.fromEntries(downloads.failures.map((failure: Json) => [failure.id, failure.error]))).toEqual({ '15': expect.stringMatching(/404/), '16': expect.stringMatching(/HTML page/), '17': expect.stringMatching(/1000 ms/) });
    // What failed is left to download by hand, or with POST /import/legacy/media.
    expect(pending).toEqual(expect.arrayContaining([15, 16, 17].map((id) => ({ id: String(id), url: `${site.origin}${attachments.find((attachment) => attachment.id === id)!.path}` }))));
    expect(pending).toHaveLength(3);

    expect(Object.fromEntries(site.hits)).toEqual({ '/uploads/red.png': 1, '/uploads/red-copy.png': 1, '/uploads/green.png': 1, '/uploads/photo.jpg': 2, '/uploads/missing.png': 1, '/page/chart.png': 1, '/hang/slow.png': 2 });
    const items = expectSuccess(await request('GET', '/media')).items as Json[];
    // Red (at two URLs), the photo, and green, which the library had.
    expect(items).toHaveLength(3);
    expect(items.map((item) => item.id)).toContain(green.id);

    const entry = expectSuccess(await request('GET', '/content/posts/gallery')).item;
    const text = JSON.stringify(entry.data);
    for (const path of ['/uploads/red', '/uploads/green', '/uploads/photo']) expect(text).not.toContain(`${site.origin}${path}`);
    for (const item of items) expect(text).toContain(new URL(item.url).pathname);
    expect(entry.data.featured_image.url).toMatch(/\/media\/file\/.*red/);
    // The failed ones stay at their old URLs until handled.
    for (const path of ['/uploads/missing.png', '/page/chart.png', '/hang/slow.png']) expect(text).toContain(`${site.origin}${path}`);
  });

  it('refuses an includeMedia that is not a boolean (400), and needs an admin (401, 403)', async () => {
    const body = { analysisId: 'an-analysis', options: { includeMedia: 'yes' } };
    const response = await request('POST', '/import/legacy/execute', body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(issuePaths(response)).toContain('options.includeMedia');
    const editor = (await t.userWithToken(40, ['content:read', 'content:write', 'media:write'])).token;
    const valid = { analysisId: 'an-analysis', options: { includeMedia: true } };
    expectError(await request('POST', '/import/legacy/execute', valid, null), 401, 'UNAUTHORIZED');
    expectError(await request('POST', '/import/legacy/execute', valid, editor), 403, 'FORBIDDEN');
  });
});

describe('WordPress import with includeMedia: a job stopped in its media phase', () => {
  let t: TestApp;
  let site: MediaFixtureServer;
  const attachments = [31, 32, 33].map((id) => ({ id, path: `/uploads/${id}.png` }));

  beforeAll(async () => {
    site = await startMediaFixtures();
    for (const [index, { path }] of attachments.entries()) site.serve(path, await distinctPng(index));
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true', IMPORT_MEDIA_CONCURRENCY: '1' });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it('is resumed without downloading again what it had, and reports as if it had run once', async () => {
    // Queued without waiting, to be run (and stopped) by this test's runners. One file at a time: the first is downloaded, the second is held while the job is stopped.
    const release = site.hold('/uploads/32.png');
    const accepted = await executeImport(t, exportWith(site.origin, attachments), {}, { prefer: 'respond-async' });
    expect(accepted.status).toBe(202);
    const job = accepted.body.data.item;
    const first = testJobRunner(t);
    const running = first.runDue();
    const deadline = Date.now() + 10_000;
    while (!site.hits.has('/uploads/32.png')) {
      if (Date.now() > deadline) throw new Error('the second file was never asked for');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.stop();
    await running;
    const stopped = expectSuccess(await t.request('GET', `${api}/import/jobs/${job.id}`, { token: t.adminToken })).item;
    expect(stopped).toMatchObject({ state: 'queued', progress: { phase: 'media' } });
    release();

    await testJobRunner(t).runDue();
    const done = expectSuccess(await t.request('GET', `${api}/import/jobs/${job.id}`, { token: t.adminToken })).item;
    expect(done.state, done.lastError).toBe('succeeded');
    // The first file once; the second again, its first answer never came; the third once.
    expect(Object.fromEntries(site.hits)).toEqual({ '/uploads/31.png': 1, '/uploads/32.png': 2, '/uploads/33.png': 1 });
    expect(done.report.media.downloads).toMatchObject({ total: 3, downloaded: 3, existing: 0, failed: 0 });
    expect(await t.db.kysely.selectFrom('media').select('id').execute()).toHaveLength(3);
    const entry = expectSuccess(await t.request('GET', `${api}/content/posts/gallery`, { token: t.adminToken })).item;
    expect(JSON.stringify(entry.data)).not.toContain(site.origin);
  });
});

describe('WordPress import with includeMedia: the storage quota', () => {
  let site: MediaFixtureServer;
  const attachments = [41, 42, 43].map((id) => ({ id, path: `/uploads/${id}.jpg` }));
  const pictures: Buffer[] = [];

  beforeAll(async () => {
    site = await startMediaFixtures();
    for (const [index, { path }] of attachments.entries()) {
      pictures.push(await testImage(40 + index, 40));
      site.serve(path, pictures[index]!, 'image/jpeg');
    }
  });
  afterAll(() => site.close());

  it('stops the downloads, not the import: the report shows the usage and what is left', async () => {
    // Room for the first picture and not for a second.
    const quota = Math.floor(pictures[0]!.length * 1.5);
    const t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true', IMPORT_MEDIA_CONCURRENCY: '1', MEDIA_STORAGE_QUOTA: String(quota) });
    try {
      const done = expectSuccess(await executeImport(t, exportWith(site.origin, attachments))).item;
      expect(done.state).toBe('succeeded');
      expect(done.report.counts).toEqual({ posts: 1 });
      expect(done.report.media.downloads).toMatchObject({ downloaded: 1, skipped: 2, stopped: { reason: 'quota', usage: { usedBytes: pictures[0]!.length, quotaBytes: quota } } });
      expect(done.report.media.pending).toEqual([42, 43].map((id) => ({ id: String(id), url: `${site.origin}/uploads/${id}.jpg` })));
    } finally {
      await t.close();
    }
  });
});
