import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { exportOf, importedPosts, wxrPost } from './support/wxr-items.ts';

/**
 * Issue 34, defect 3: a post WordPress shows only to who knows its password was made public by the
 * import. It is now imported as a draft, out of every public read, and the report says why.
 */
describe('WordPress import: password-protected posts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('imports a protected post as a draft that the public cannot read, and says so in the report', async () => {
    const dated = '<wp:post_date_gmt>2024-02-01 08:00:00</wp:post_date_gmt>';
    const { report } = await importedPosts(
      t,
      exportOf('protected', [
        wxrPost(1, 'members-only', 'publish', `${dated}<wp:post_password><![CDATA[s3cret]]></wp:post_password>`),
        wxrPost(2, 'for-everyone', 'publish', `${dated}<wp:post_password></wp:post_password>`),
        wxrPost(3, 'protected-draft', 'draft', `${dated}<wp:post_password>later</wp:post_password>`),
      ]),
    );
    const entry = async (slug: string) => expectSuccess(await t.request('GET', `${api}/content/posts/${slug}`, { token: t.adminToken })).item;
    const protectedPost = await entry('members-only');
    expect(protectedPost).toMatchObject({ status: 'draft' });
    expect(protectedPost.publishedAt).toBeUndefined();
    expect(await entry('for-everyone')).toMatchObject({ status: 'published' });
    expect(await entry('protected-draft')).toMatchObject({ status: 'draft' });

    // The public (the site reads without a token) sees the open post and nothing of the protected one.
    expectSuccess(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { publicRead: true } }));
    expect((await t.request('GET', `${api}/content/posts/members-only`)).status).toBe(404);
    const listed = expectSuccess(await t.request('GET', `${api}/content/posts?limit=50`));
    expect(listed.items.map((item: { slug: string }) => item.slug)).toEqual(['for-everyone']);
    // Nor is the password kept anywhere an editor could leak it.
    expect(JSON.stringify(protectedPost)).not.toContain('s3cret');

    expect(report.warnings).toEqual([
      expect.objectContaining({
        sourceId: '1',
        message: 'password-protected in the source: imported as a draft, so it is not public (the password is not kept)',
        entry: { collection: 'posts', id: protectedPost.id },
      }),
    ]);
  });
});
