import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { finishedJob } from './support/import-checks.ts';
import { startMediaFixtures, type MediaFixtureServer } from './support/media-fixtures.ts';
import { tinyPng } from './support/media.ts';
import { analyze } from './support/wxr.ts';
import { exportOf, wxrMeta as meta, wxrPost as post } from './support/wxr-items.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/** Yoast SEO and Rank Math meta of a WordPress export as the entries' SEO values (issue 34). */
describe('WordPress import: SEO plugin meta', () => {
  let t: TestApp;
  let site: MediaFixtureServer;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });
  const entry = async (collection: string, slug: string): Promise<Json> => expectSuccess(await request('GET', `/content/${collection}/${slug}`)).item;

  /** Analyses, prepares (posts into `collection`) and imports the export; the analysis' post type and the report. */
  async function imported(file: Buffer, collection: string): Promise<{ postType: Json; report: Json }> {
    const analysis = expectCreated(await analyze(t, file));
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection, enabled: true }] }));
    const job = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, postTypeMappings: { post: { collection } }, options: { includeMedia: false } }));
    expect(job.report.failed).toEqual([]);
    return { postType: analysis.postTypes.find((type: Json) => type.name === 'post'), report: job.report };
  }

  const yoast = [
    meta('_yoast_wpseo_title', 'Pancakes that rise %%sep%% %%sitename%%'),
    meta('_yoast_wpseo_metadesc', 'Fluffy pancakes in ten minutes.'),
    meta('_yoast_wpseo_canonical', 'https://old.example/pancakes/'),
    meta('_yoast_wpseo_meta-robots-noindex', '1'),
    meta('_yoast_wpseo_opengraph-image', 'https://old.example/wp-content/uploads/pancakes.jpg'),
    meta('_yoast_wpseo_focuskw', 'pancakes'),
    meta('mood', 'hungry'),
  ].join('');
  const rankMath = [
    meta('rank_math_title', '%title% %sep% %sitename%'),
    meta('rank_math_description', 'Waffles, %excerpt%'),
    meta('rank_math_canonical_url', 'https://old.example/waffles/'),
    meta('rank_math_robots', 'a:2:{i:0;s:7:"noindex";i:1;s:8:"nofollow";}'),
    meta('rank_math_facebook_image', 'https://old.example/wp-content/uploads/waffles.jpg'),
    meta('rank_math_focus_keyword', 'waffles,breakfast'),
  ].join('');

  const dated = '<wp:post_date_gmt>2024-03-01 10:00:00</wp:post_date_gmt>';

  beforeAll(async () => {
    site = await startMediaFixtures();
    site.serve('/uploads/card.png', await tinyPng('#f80', 12, 6));
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it('fills the SEO values of a new collection from Yoast on one post and Rank Math on another', async () => {
    const { postType, report } = await imported(
      exportOf('seo-new', [
        post(1, 'pancakes', 'publish', `${dated}${yoast}`),
        post(2, 'waffles', 'publish', `${dated}<excerpt:encoded><![CDATA[crisp and golden]]></excerpt:encoded>${rankMath}`),
        post(3, 'plain', 'publish', dated + meta('mood', 'calm')),
      ]),
      'recipes',
    );
    expect(postType.seo).toBe(true);
    expect(report.warnings).toEqual([]);
    const collection = expectSuccess(await request('GET', '/schema/collections/recipes')).item;
    expect(collection.supports).toContain('seo');

    const pancakes = await entry('recipes', 'pancakes');
    expect(pancakes.seo).toEqual({
      title: 'Pancakes that rise',
      description: 'Fluffy pancakes in ten minutes.',
      canonical: 'https://old.example/pancakes/',
      noIndex: true,
      image: { url: 'https://old.example/wp-content/uploads/pancakes.jpg' },
    });
    // The focus keyword stays in the meta; the other plugin keys do not (a custom field still gets its own field).
    expect(pancakes.data.meta).toEqual({ _yoast_wpseo_focuskw: 'pancakes' });
    expect(pancakes.data.mood).toBe('hungry');

    const waffles = await entry('recipes', 'waffles');
    // A title that only says the post's title again is the plugin's default: none is kept.
    expect(waffles.seo).toEqual({
      title: null,
      description: 'Waffles, crisp and golden',
      canonical: 'https://old.example/waffles/',
      noIndex: true,
      image: { url: 'https://old.example/wp-content/uploads/waffles.jpg' },
    });
    expect(waffles.data.meta).toEqual({ rank_math_focus_keyword: 'waffles,breakfast' });
    expect((await entry('recipes', 'plain')).seo).toEqual({ title: null, description: null, canonical: null, noIndex: false, image: null });
  });

  it('gives an existing collection seo support, and reports values it cannot keep', async () => {
    await createCollection(t, 'articles', [{ slug: 'title', type: 'string' }], { supports: ['drafts'] });
    const { report } = await imported(
      exportOf('seo-existing', [
        post(11, 'odd', 'publish', [
          dated,
          meta('_yoast_wpseo_title', `%%title%% in %%category%% ${'x'.repeat(130)}`),
          meta('_yoast_wpseo_canonical', 'javascript:alert(1)'),
          meta('_yoast_wpseo_meta-robots-noindex', '2'),
          meta('_yoast_wpseo_metadesc', 'Kept.'),
        ].join('')),
      ]),
      'articles',
    );
    expect(expectSuccess(await request('GET', '/schema/collections/articles')).item.supports).toEqual(['drafts', 'seo']);
    expect(report.warnings.map((warning: Json) => warning.message).sort()).toEqual([
      'SEO canonical not imported: Must be an absolute http(s) URL',
      'SEO template variable %%category%% is not resolved on import; it was left out',
      expect.stringMatching(/^SEO title not imported: /),
    ]);
    expect((await entry('articles', 'odd')).seo).toEqual({ title: null, description: 'Kept.', canonical: null, noIndex: false, image: null });
  });

  it('keeps the plugin meta as meta when the target collection is not given SEO values', async () => {
    const { postType } = await imported(exportOf('seo-none', [post(21, 'bare', 'publish', dated + meta('mood', 'calm'))]), 'bare_posts');
    expect(postType.seo).toBe(false);
    expect(expectSuccess(await request('GET', '/schema/collections/bare_posts')).item.supports).not.toContain('seo');
  });

  it('points a social image at the library once the media are imported', async () => {
    const original = `${site.origin}/uploads/card.png`;
    const attachment = `<item><title>Card</title><wp:post_id>39</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>card</wp:post_name><wp:attachment_url>${original}</wp:attachment_url></item>`;
    await imported(exportOf('seo-media', [post(31, 'carded', 'publish', dated + meta('_yoast_wpseo_opengraph-image', original)), attachment]), 'cards');
    expect((await entry('cards', 'carded')).seo.image).toEqual({ url: original });
    const result = expectSuccess(await request('POST', '/import/legacy/media', { attachments: [{ id: '39', url: original }] }));
    expect(result).toMatchObject({ downloaded: 1, rewritten: { entries: 1 } });
    const [item] = expectSuccess(await request('GET', '/media')).items as Json[];
    expect((await entry('cards', 'carded')).seo.image).toEqual({ url: item!.url });
  });
});
