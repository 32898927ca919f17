import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { exportOf, importedPosts, wxrAuthor, wxrComment, wxrPost } from './support/wxr-items.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

const dated = (day: number) => `<wp:post_date_gmt>2024-03-${String(day).padStart(2, '0')} 10:00:00</wp:post_date_gmt>`;

/** A visitor's comment of March `day`, at `hour`. */
const visitor = (name: string, day: number, hour: number, extra: Record<string, string | number> = {}) => ({
  author: name,
  author_email: `${name.toLowerCase()}@visitors.example`,
  author_url: `https://${name.toLowerCase()}.example`,
  date_gmt: `2024-03-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`,
  approved: 1,
  parent: 0,
  user_id: 0,
  ...extra,
});

/**
 * Issue 34: the conversation under each post moves with it. WordPress's comments come with their
 * threads, authors, dates and moderation states, their few tags as the comments' Markdown; a
 * re-import adds none twice.
 */
describe('WordPress import: comments', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown, token: string | undefined = t.adminToken) => t.request(method, `${api}${path}`, { token, body });
  const file = () =>
    exportOf('discussed', [
      wxrAuthor(7, 'ann'),
      wxrPost(
        1,
        'talked-about',
        'publish',
        dated(1) +
          wxrComment(10, visitor('Bea', 2, 9, { content: 'First!\nSecond line.\n\nA <a href="https://bea.example/post">link</a>, <strong>bold</strong> and *stars*.<script>alert(1)</script>' })) +
          // Ann, the post's author, answers while signed in.
          wxrComment(11, visitor('Ann', 2, 10, { user_id: 7, parent: 10, content: 'Thanks, Bea.' })) +
          wxrComment(12, visitor('Cid', 3, 9, { approved: 0, content: 'Held for review' })) +
          wxrComment(13, visitor('Spammer', 3, 10, { approved: 'spam', content: 'Cheap pills' })) +
          wxrComment(14, visitor('Dee', 3, 11, { approved: 'trash', content: 'Thrown away' })) +
          wxrComment(15, visitor('Other blog', 4, 9, { type: 'pingback', content: '[…] as discussed there […]' })),
      ),
      // A reply listed before the comment it answers, and one to a comment the export does not hold.
      // Their sites as a posted comment's would be kept: Eve's is too long, Gus's malformed.
      wxrPost(
        2,
        'out-of-order',
        'publish',
        dated(5) +
          wxrComment(21, visitor('Eve', 6, 10, { parent: 22, content: 'Agreed.', author_url: `https://eve.example/${'e'.repeat(500)}` })) +
          wxrComment(22, visitor('Fay', 6, 9, { content: 'Opening.' })) +
          wxrComment(23, visitor('Gus', 6, 11, { parent: 99, content: 'Orphan.', author_url: 'https://gus example' })),
      ),
      // Quotes nested deeper than the renderer takes: shown as text, and the report says so.
      wxrPost(3, 'deep-quotes', 'publish', dated(7) + wxrComment(31, visitor('Hal', 8, 9, { content: `${'<blockquote>'.repeat(40)}Deep${'</blockquote>'.repeat(40)}` }))),
    ]);

  let report: Json;
  let postType: Json;
  beforeAll(async () => {
    t = await createTestApp();
    ({ report, postType } = await importedPosts(t, file(), { includeMenus: true }, { authorMapping: { ann: t.admin.id } }));
    expectSuccess(await request('POST', '/settings', { publicRead: true }));
  });
  afterAll(async () => {
    await t.close();
  });

  const entryId = async (slug: string): Promise<string> => expectSuccess(await request('GET', `/content/posts/${slug}`)).item.id;
  const allComments = async (query: string): Promise<Json[]> => expectSuccess(await request('GET', `/comments?limit=100&${query}`)).items;

  it('counts them in the analysis and the report, and the collection takes comments', async () => {
    expect(postType).toMatchObject({ name: 'post', count: 3 });
    expect(report.comments).toEqual({ approved: 7, pending: 1, spam: 1, trash: 1 });
    expect(report.skipped).toEqual([]);
    const collection = expectSuccess(await request('GET', '/schema/collections/posts')).item;
    expect(collection.comments).toMatchObject({ enabled: true, moderation: 'first-time' });
  });

  it('shows the approved ones publicly, threaded, dated as in the source, their text safe Markdown', async () => {
    const threads = expectSuccess(await request('GET', `/content/posts/${await entryId('talked-about')}/comments?order=oldest`, undefined, undefined)).items;
    expect(threads.map((thread: Json) => thread.authorName)).toEqual(['Bea', 'Other blog']);
    const [bea, pingback] = threads;
    expect(bea).toMatchObject({ authorUrl: 'https://bea.example', byUser: false, createdAt: '2024-03-02T09:00:00.000Z' });
    expect(bea.bodyHtml).toContain('First!<br>');
    expect(bea.bodyHtml).toContain('<a href="https://bea.example/post" rel="nofollow ugc">link</a>');
    expect(bea.bodyHtml).toContain('<strong>bold</strong>');
    // Asterisks the commenter typed stay asterisks; a script stays out.
    expect(bea.bodyHtml).toContain('*stars*');
    expect(bea.bodyHtml).not.toMatch(/<script|alert/);
    expect(bea.replies).toEqual([expect.objectContaining({ authorName: 'Ann', byUser: true, parentId: bea.id, bodyHtml: expect.stringContaining('Thanks, Bea.') })]);
    expect(pingback.bodyHtml).toContain('as discussed there');
    expect(JSON.stringify(threads)).not.toContain('@visitors.example');
  });

  it('keeps the moderation states, the emails for editors and the signed-in author as the mapped person', async () => {
    const id = await entryId('talked-about');
    const held = await allComments(`entryId=${id}&status=pending`);
    expect(held).toEqual([expect.objectContaining({ authorName: 'Cid', authorEmail: 'cid@visitors.example', status: 'pending' })]);
    expect((await allComments(`entryId=${id}&status=spam`)).map((comment) => comment.body)).toEqual(['Cheap pills']);
    expect((await allComments(`entryId=${id}&status=trash`)).map((comment) => comment.authorName)).toEqual(['Dee']);
    const [ann] = (await allComments(`entryId=${id}&status=approved`)).filter((comment) => comment.authorName === 'Ann');
    expect(ann).toMatchObject({ authorUserId: t.admin.id, body: 'Thanks, Bea.' });
  });

  it('puts a reply after the comment it answers, and a reply to a comment not in the export at the top', async () => {
    const threads = expectSuccess(await request('GET', `/content/posts/${await entryId('out-of-order')}/comments?order=oldest`, undefined, undefined)).items;
    expect(threads.map((thread: Json) => [thread.authorName, thread.replies.map((reply: Json) => reply.authorName)])).toEqual([
      ['Fay', ['Eve']],
      ['Gus', []],
    ]);
    expect(threads.map((thread: Json) => thread.authorUrl)).toEqual(['https://fay.example', undefined]);
    expect(threads[0].replies[0].authorUrl).toBeUndefined();
  });

  it('keeps a comment whose Markdown nests too deeply as its text, with a warning', async () => {
    const [deep] = expectSuccess(await request('GET', `/content/posts/${await entryId('deep-quotes')}/comments`, undefined, undefined)).items;
    expect(deep.bodyHtml).toMatch(/^<p>(&#62; ){40}Deep<\/p>$/);
    expect(report.warnings).toContainEqual(expect.objectContaining({ sourceId: '3', message: expect.stringMatching(/^comment 31: Markdown nests too deeply .*; kept as plain text$/) }));
  });

  it('adds no comment twice when the same export is imported again', async () => {
    const before = (await allComments('collection=posts')).length;
    const again = await importedPosts(t, file(), { includeMenus: true }, { authorMapping: { ann: t.admin.id } });
    expect(again.report.comments).toEqual({ approved: 0, pending: 0, spam: 0, trash: 0 });
    expect(again.report.alreadyImported).toBe(3);
    expect(await allComments('collection=posts')).toHaveLength(before);
  });
});
