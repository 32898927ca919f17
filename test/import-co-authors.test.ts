import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { finishedJob } from './support/import-checks.ts';
import { allPages, analyze } from './support/wxr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

const meta = (key: string, value: string) => `<wp:postmeta><wp:meta_key><![CDATA[${key}]]></wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`;

/**
 * What Co-Authors Plus exports: the source author ann; a post credited to the guest author jane,
 * then ann, then bob (neither a source nor a guest author), its `dc:creator` ann; the `author` terms
 * crediting them; the guest author's own item (after the post, as a later guest author comes); and
 * a post with no co-author terms.
 */
const coAuthorsExport = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>co-authors</title><link>https://co-authors.example</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_login>ann</wp:author_login><wp:author_email>ann@co-authors.example</wp:author_email><wp:author_display_name><![CDATA[Ann Example]]></wp:author_display_name></wp:author>
<wp:term><wp:term_id>7</wp:term_id><wp:term_taxonomy>author</wp:term_taxonomy><wp:term_slug>cap-ann</wp:term_slug><wp:term_name><![CDATA[ann]]></wp:term_name></wp:term>
<wp:term><wp:term_id>8</wp:term_id><wp:term_taxonomy>author</wp:term_taxonomy><wp:term_slug>cap-jane</wp:term_slug><wp:term_name><![CDATA[jane]]></wp:term_name></wp:term>
<item><title>Together</title><dc:creator>ann</dc:creator><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>together</wp:post_name>
<wp:post_date_gmt>2024-03-01 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<p>Written by two.</p>]]></content:encoded>
<category domain="author" nicename="cap-jane"><![CDATA[jane]]></category><category domain="author" nicename="cap-ann"><![CDATA[ann]]></category>
<category domain="author" nicename="cap-bob"><![CDATA[bob]]></category></item>
<item><title>Alone</title><dc:creator>ann</dc:creator><wp:post_id>2</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>alone</wp:post_name>
<wp:post_date_gmt>2024-03-02 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<p>Written by one.</p>]]></content:encoded></item>
<item><title>Jane Guest</title><dc:creator>ann</dc:creator><wp:post_id>3</wp:post_id><wp:post_type>guest-author</wp:post_type><wp:status>publish</wp:status><wp:post_name>cap-jane</wp:post_name>
${meta('cap-display_name', 'Jane Doe')}${meta('cap-user_login', 'jane')}${meta('cap-user_email', 'jane@example.com')}</item>
</channel></rss>`);

/** Issue 34: Co-Authors Plus credits become bylines, in order; neither its taxonomy nor its guest authors become content. */
describe('WordPress import: Co-Authors Plus', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("credits a post's co-authors as its bylines, in order: a source author through its user, a guest author by its display name", async () => {
    const analysis = expectCreated(await analyze(t, coAuthorsExport));
    // Neither the `author` taxonomy nor the guest author post type is offered as content; the guest author is not offered for mapping.
    expect(analysis.taxonomies.map((taxonomy: Json) => taxonomy.name)).not.toContain('author');
    expect(analysis.postTypes.map((type: Json) => type.name)).toEqual(['post']);
    expect(analysis.skipped).toEqual([{ postType: 'guest-author', count: 1, reason: 'Co-Authors Plus guest author: imported as a byline' }]);
    expect(analysis.authors.map((author: Json) => author.login)).toEqual(['ann']);

    const user = (await t.userWithToken(40, ['content:read'], 'ann@folio.example')).user;
    expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
    const job = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options: { includeTaxonomies: true }, authorMapping: { ann: user.id } }));
    expect(job.report.failed).toEqual([]);
    expect(job.report.counts).toEqual({ posts: 2 });
    expect(job.report.skipped).toContainEqual({ reason: 'guest-author: Co-Authors Plus guest author: imported as a byline', count: 1, items: [] });

    const bylines = await allPages<Json>(t, '/bylines');
    const ann = bylines.find((byline) => byline.userId === user.id)!;
    const jane = bylines.find((byline) => byline.displayName === 'Jane Doe')!;
    expect(jane).toMatchObject({ userId: null });
    const together = expectSuccess(await request('GET', '/content/posts/together')).item;
    // bob, known only by the term, is a guest byline of the term's name.
    const bob = bylines.find((byline) => byline.displayName === 'bob')!;
    expect(bob).toMatchObject({ userId: null });
    expect(together).toMatchObject({ bylines: [jane.id, ann.id, bob.id], primaryBylineId: jane.id });
    // Without co-author terms, the item's `dc:creator` is its byline, as ever.
    expect(expectSuccess(await request('GET', '/content/posts/alone')).item).toMatchObject({ bylines: [ann.id], primaryBylineId: ann.id });
    expect((await allPages<Json>(t, '/taxonomies')).map((taxonomy) => taxonomy.name)).not.toContain('author');
  });
});
