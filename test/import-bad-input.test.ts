import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../src/system/housekeeping.ts';
import { api, createCollection, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { text } from 'node:stream/consumers';
import { multipart } from './support/media.ts';
import { analyze } from './support/wxr.ts';
import { generatedExport, generatedSite } from './support/wxr-generator.ts';

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>&lol4;</title><wp:wxr_version>1.2</wp:wxr_version></channel></rss>`;

const externalEntity = `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>&secret;</title><wp:wxr_version>1.2</wp:wxr_version></channel></rss>`;

const namespaces = 'xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/"';

/**
 * An `&` written bare in a title on line 4, character 18 (issue 34): the parser alone would report it lines
 * later, where the next `;` ends what it takes for an entity name. The one in CDATA is text.
 */
const bareAmpersand = `<?xml version="1.0"?>
<rss version="2.0" ${namespaces}>
<channel><title>Ampersand</title><wp:wxr_version>1.2</wp:wxr_version>
<item><title>Tom & Jerry</title><wp:post_id>1</wp:post_id>
<content:encoded><![CDATA[<p>R&D, in CDATA</p>]]></content:encoded></item>
${Array.from({ length: 30 }, (_, index) => `<item><title>Post ${index} &amp; more</title><wp:post_id>${index + 2}</wp:post_id></item>`).join('\n')}
</channel></rss>`;

/** What a file that is not XML at all looks like it is, and where an export comes from. */
const notAnExport = (kind: string) => new RegExp(`looks like ${kind}, not a WordPress export\\. A WordPress export is an \\.xml file, made in WordPress under Tools → Export`);

/** A generated site's export (test/support/wxr-generator.ts): small, and well formed until a case breaks it. */
const siteExport = generatedSite({ site: 'https://bad-input.example.com' });
/** A generated export of about 400 kB, larger than a cut-off body and than a 64 kB upload limit. */
const largeExport = Buffer.from(await text(generatedExport({ posts: 200 })));

/**
 * Every way an upload can be wrong gets a 4xx naming the problem, and nothing of it is kept: no
 * analysis, no file in storage, no collection. Then the flow's other refusals (unknown or expired
 * analyses, bad mappings) and who may call the import endpoints at all.
 */
describe('WordPress import: bad input and access', () => {
  let t: TestApp;
  let mediaDir: string;
  const request = (method: string, url: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${url}`, { token: token ?? undefined, body });
  const stored = () => (fs.existsSync(path.join(mediaDir, 'imports')) ? fs.readdirSync(path.join(mediaDir, 'imports')) : []);
  const analyses = async () => (await t.db.kysely.selectFrom('import_analyses').select('id').execute()).length;

  beforeAll(async () => {
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-'));
    t = await createTestApp({ MEDIA_DIR: mediaDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  const cases: [string, () => Uint8Array, RegExp][] = [
    ['an empty file', () => new Uint8Array(), /empty/],
    ['text that is not XML', () => Buffer.from('Dear WordPress, this is a letter, not an export.'), notAnExport('plain text')],
    ['a Markdown file', () => Buffer.from('# Our trip\n\nWe went to *Paris* & saw [the tower](https://example.com/tower).\n\n- day one\n- day two\n'), notAnExport('Markdown')],
    ['a JSON file', () => Buffer.from('{"posts": [{"title": "Hello", "status": "publish"}]}'), notAnExport('JSON')],
    ['an HTML page', () => Buffer.from('<!DOCTYPE html>\n<html lang="en"><head><title>My blog</title></head><body><p>Hello & welcome</p></body></html>\n'), notAnExport('an HTML page')],
    ['a ZIP archive', () => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(60, 1)]), /looks like a ZIP archive \(unzip it and upload the \.xml file it holds\), not a WordPress export/],
    ['an unescaped & in a title', () => Buffer.from(bareAmpersand), /^Malformed XML at line 4, character 18: an & that begins no character reference/],
    ['XML that is not an export', () => Buffer.from('<?xml version="1.0"?><html><body>hi</body></html>'), /root element is <html>/],
    ['an RSS feed without a channel', () => Buffer.from('<?xml version="1.0"?><rss version="2.0"></rss>'), /no <channel>/],
    // The WordPress importer's own malformed files make the same cases in the fidelity suite (test/fidelity/import-edge-cases.test.ts).
    ['malformed XML (unclosed item)', () => Buffer.from(`<?xml version="1.0"?><rss version="2.0" ${namespaces}><channel><title>Malformed</title><wp:wxr_version>1.2</wp:wxr_version><item><title>Broken</title><wp:post_id>1</wp:post_id></channel></rss>`), /^Malformed XML at line 1, character \d+: a close tag that does not match <item>, which opens at line 1 and is never closed$/],
    ['malformed XML (a channel never closed)', () => Buffer.from(siteExport.replace('</channel>', '')), /Malformed XML|no <channel>/],
    ['malformed XML (nested CDATA)', () => Buffer.from(siteExport.replace('<p>Post 1 says hello', '<![CDATA[nested]]> <p>Post 1 says hello')), /Malformed XML/],
    ['a missing WXR version', () => Buffer.from(siteExport.replace(/<wp:wxr_version>[^<]*<\/wp:wxr_version>/, '')), /no WXR version/],
    ['an unknown WXR version', () => Buffer.from(siteExport.replace(/<wp:wxr_version>[^<]*<\/wp:wxr_version>/, '<wp:wxr_version>abc</wp:wxr_version>')), /Unknown WXR version "abc"/],
    ['a truncated file', () => largeExport.subarray(0, 200_000), /^Malformed XML: the file ends inside <[^>]+>, which opens at line \d+ and is never closed$/],
    ['an entity expansion bomb', () => Buffer.from(billionLaughs), /DOCTYPE/],
    ['an external entity', () => Buffer.from(externalEntity), /DOCTYPE/],
  ];

  for (const [name, bytes, message] of cases) {
    it(`refuses ${name} with a 400 naming the problem, keeping nothing`, async () => {
      const response = await analyze(t, bytes());
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(message);
      expect(response.body.error.details.issues).toEqual([{ path: 'file', message: response.body.error.message }]);
      expect(await analyses()).toBe(0);
      expect(stored()).toEqual([]);
      expect((await t.db.kysely.selectFrom('collections').select('id').execute()).length).toBe(0);
    });
  }

  it('refuses an upload cut off mid-body', async () => {
    const { body, contentType } = await multipart({ file: { bytes: largeExport, filename: 'export.xml' } });
    expect(body.length).toBeGreaterThan(300_000);
    const response = await t.request('POST', `${api}/import/legacy/analyze`, { token: t.adminToken, rawBody: body.subarray(0, 200_000), headers: { 'content-type': contentType } });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/Malformed multipart|Unexpected end/i);
    expect(await analyses()).toBe(0);
    expect(stored()).toEqual([]);
  });

  it('refuses a file over the configured upload limit with a 413', async () => {
    const small = await createTestApp({ MEDIA_DIR: mediaDir, IMPORT_UPLOAD_LIMIT: '64kb' });
    try {
      const response = await analyze(small, largeExport, small.adminToken);
      expectError(response, 413, 'PAYLOAD_TOO_LARGE');
      expect(stored()).toEqual([]);
      expect((await small.db.kysely.selectFrom('import_analyses').select('id').execute()).length).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('refuses a request without the file part', async () => {
    const { body, contentType } = await multipart({ note: 'no file here' });
    const response = await t.request('POST', `${api}/import/legacy/analyze`, { token: t.adminToken, rawBody: body, headers: { 'content-type': contentType } });
    expectError(response, 400, 'VALIDATION_ERROR');
  });

  it('answers 404 for an unknown or expired analysis, and 400 for bad mappings', async () => {
    expectError(await request('POST', '/import/legacy/execute', { analysisId: '01NOSUCHANALYSIS', options: {} }), 404, 'NOT_FOUND');
    expectError(await request('GET', '/import/legacy/analyses/01NOSUCHANALYSIS'), 404, 'NOT_FOUND');
    expectError(await request('GET', '/import/jobs/01NOSUCHJOB'), 404, 'NOT_FOUND');

    const analysis = expectCreated(await analyze(t, Buffer.from(siteExport)));
    // No collection yet: the default mapping names collections prepare has not made.
    const missing = expectError(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: {} }), 400, 'VALIDATION_ERROR');
    expect(missing.message).toMatch(/No collection posts/);
    expectError(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, postTypeMappings: { post: { collection: 'nowhere' } } }), 400, 'VALIDATION_ERROR');
    expectError(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, postTypeMappings: { movie: { collection: 'posts' } } }), 400, 'VALIDATION_ERROR');
    await createCollection(t, 'posts', [{ slug: 'title', type: 'integer' }]);
    // A field the import needs, of another type: incompatible, nothing changed.
    const fields = (await t.db.kysely.selectFrom('fields').select('slug').execute()).length;
    const conflict = expectError(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }), 400, 'VALIDATION_ERROR');
    expect(conflict.message).toMatch(/field title of type integer/);
    expect((await t.db.kysely.selectFrom('fields').select('slug').execute()).length).toBe(fields);
    expect(expectSuccess(await request('GET', `/import/legacy/analyses/${analysis.analysisId}`)).postTypes.find((type: { name: string }) => type.name === 'post').status).toBe('incompatible');
    expectError(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, postTypeMappings: { post: { collection: 'posts' } }, authorMapping: { admin: '01NOSUCHUSER' } }), 400, 'VALIDATION_ERROR');
    expectError(await request('POST', '/import/legacy/prepare', { postTypes: [] }), 400, 'VALIDATION_ERROR');
    expectError(await request('POST', '/import/legacy/prepare', { postTypes: [{ name: 'post', collection: 'Bad Slug', enabled: true }] }), 400, 'VALIDATION_ERROR');

    t.clock.advance(25 * 3_600_000);
    expectError(await request('GET', `/import/legacy/analyses/${analysis.analysisId}`), 404, 'NOT_FOUND');
    expectError(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: {} }), 404, 'NOT_FOUND');
    // Housekeeping clears expired ones and their files, not the next request.
    expectCreated(await analyze(t, Buffer.from(siteExport)));
    expect(await analyses()).toBeGreaterThan(1);
    await sweepExpired(t);
    expect(await analyses()).toBe(1);
    expect(stored()).toHaveLength(1);
  });

  it('needs an admin for every import endpoint (401 without a token, 403 without the scope)', async () => {
    const editor = (await t.userWithToken(40, ['content:read', 'content:write', 'media:write'])).token;
    const { body, contentType } = await multipart({ file: { bytes: Buffer.from(siteExport), filename: 'x.xml' } });
    const calls: [string, string, unknown][] = [
      ['POST', '/import/legacy/prepare', { postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }],
      ['POST', '/import/legacy/execute', { analysisId: 'x', options: {} }],
      ['GET', '/import/legacy/analyses/x', undefined],
      ['GET', '/import/jobs/x', undefined],
      ['GET', '/import/jobs/x/progress', undefined],
      ['GET', '/import/jobs', undefined],
      ['GET', '/import/legacy/analyses', undefined],
      ['POST', '/import/jobs/x/resume', {}],
    ];
    for (const [method, url, payload] of calls) {
      expectError(await request(method, url, payload, null), 401, 'UNAUTHORIZED');
      expectError(await request(method, url, payload, editor), 403, 'FORBIDDEN');
    }
    for (const url of ['/import/legacy/analyze', '/import/legacy/execute']) {
      expectError(await t.request('POST', `${api}${url}`, { rawBody: body, headers: { 'content-type': contentType } }), 401, 'UNAUTHORIZED');
      expectError(await t.request('POST', `${api}${url}`, { token: editor, rawBody: body, headers: { 'content-type': contentType } }), 403, 'FORBIDDEN');
    }
    expect(stored()).toHaveLength(1);
  });
});
