import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

const day = 86_400_000;

/** The public side of comments: posting, moderation modes, threaded reads, counts, limits and refusals. */
describe('comments (public)', () => {
  let t: TestApp;
  let emails = 0;
  const request = (method: string, path: string, body?: unknown, token?: string) => t.request(method, `${api}${path}`, { token, body });
  const visitor = (extra: Record<string, unknown> = {}) => ({ name: 'Ada', email: `ada${++emails}@example.com`, body: 'Nice post', ...extra });
  const post = (collection: string, entryId: string, body: Record<string, unknown>, token?: string) => request('POST', `/content/${collection}/${entryId}/comments`, body, token);
  const read = async (collection: string, entryId: string, query = '') => expectSuccess(await request('GET', `/content/${collection}/${entryId}/comments${query}`));
  const stored = async () => Number((await t.db.kysely.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const publish = async (collection: string, title = 'Hello') => (await createEntry(t, collection, { data: { title }, status: 'published' })).id as string;

  beforeAll(async () => {
    t = await createTestApp({ COMMENT_CLIENT_LIMIT: '3', COMMENT_ENTRY_LIMIT: '20' });
    expectSuccess(await request('POST', '/settings', { publicRead: true }, t.adminToken));
    await createCollection(t, 'open', [{ slug: 'title', type: 'string' }], { comments: { moderation: 'none' } });
    await createCollection(t, 'held', [{ slug: 'title', type: 'string' }], { comments: { moderation: 'all' } });
    await createCollection(t, 'firsts', [{ slug: 'title', type: 'string' }], { comments: {} });
    await createCollection(t, 'closing', [{ slug: 'title', type: 'string' }], { comments: { moderation: 'none', closeAfterDays: 14 } });
    await createCollection(t, 'quiet', [{ slug: 'title', type: 'string' }]);
    await createCollection(t, 'off', [{ slug: 'title', type: 'string' }], { comments: { enabled: false } });
  });
  afterAll(() => t.close());

  it("keeps a collection's settings, with defaults, through the schema API", async () => {
    const firsts = expectSuccess(await request('GET', '/schema/collections/firsts', undefined, t.adminToken)).item;
    expect(firsts.comments).toEqual({ enabled: true, moderation: 'first-time', closeAfterDays: null });
    expect(expectSuccess(await request('GET', '/schema/collections/quiet', undefined, t.adminToken)).item.comments).toBeUndefined();
    expect(issuePaths(await request('PATCH', '/schema/collections/quiet', { comments: { moderation: 'sometimes' } }, t.adminToken))).toEqual(['comments.moderation']);
  });

  it('posts a comment the public reads at once where nothing is moderated, without its email', async () => {
    const entry = await publish('open');
    const posted = expectCreated(await post('open', entry, visitor({ url: 'https://ada.example/' }))).item;
    expect(posted).toMatchObject({ status: 'approved', authorName: 'Ada', authorUrl: 'https://ada.example/', bodyHtml: '<p>Nice post</p>', byUser: false });
    const page = await read('open', entry);
    expect(page.items).toEqual([{ id: posted.id, authorName: 'Ada', authorUrl: 'https://ada.example/', byUser: false, bodyHtml: '<p>Nice post</p>', createdAt: posted.createdAt, replies: [] }]);
    expect(JSON.stringify(page)).not.toContain('@example.com');
  });

  it('holds every comment with moderation "all", and a first-time commenter with "first-time"', async () => {
    const held = await publish('held');
    expect(expectCreated(await post('held', held, visitor())).item.status).toBe('pending');
    expect((await read('held', held)).items).toEqual([]);

    const firsts = await publish('firsts');
    const grace = { name: 'Grace', email: 'Grace@Example.com', body: 'First!' };
    const first = expectCreated(await post('firsts', firsts, grace)).item;
    expect(first.status).toBe('pending');
    expect(expectCreated(await post('firsts', firsts, { ...grace, body: 'Again' })).item.status).toBe('pending');
    expectSuccess(await request('POST', '/comments/moderate', { ids: [first.id], action: 'approve' }, t.adminToken));
    // Known by email, whatever its case: approved at once from now on.
    expect(expectCreated(await post('firsts', firsts, { ...grace, email: 'grace@example.com', body: 'Third' })).item.status).toBe('approved');
  });

  it('reads threads a page at a time, newest or oldest first, each with its replies oldest first', async () => {
    const entry = await publish('open');
    const threads: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(1000);
      threads.push(expectCreated(await post('open', entry, visitor({ body: `Thread ${i}` }))).item.id);
    }
    t.clock.advance(1000);
    const reply = expectCreated(await post('open', entry, visitor({ body: 'A reply', parentId: threads[1] }))).item;
    t.clock.advance(1000);
    const nested = expectCreated(await post('open', entry, visitor({ body: 'A reply to the reply', parentId: reply.id }))).item;
    expect(reply.parentId).toBe(threads[1]);

    const first = await read('open', entry, '?limit=2');
    expect(first.items.map((item: { id: string }) => item.id)).toEqual([threads[4], threads[3]]);
    const second = await read('open', entry, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((item: { id: string }) => item.id)).toEqual([threads[2], threads[1]]);
    expect(second.items[1].replies.map((item: { id: string; parentId: string }) => [item.id, item.parentId])).toEqual([
      [reply.id, threads[1]],
      [nested.id, reply.id],
    ]);
    const last = await read('open', entry, `?limit=2&cursor=${second.nextCursor}`);
    expect(last.items.map((item: { id: string }) => item.id)).toEqual([threads[0]]);
    expect(last.nextCursor).toBeUndefined();

    const oldest = await read('open', entry, '?order=oldest&limit=3');
    expect(oldest.items.map((item: { id: string }) => item.id)).toEqual(threads.slice(0, 3));
    expect((await read('open', entry, `?order=oldest&limit=3&cursor=${oldest.nextCursor}`)).items.map((item: { id: string }) => item.id)).toEqual(threads.slice(3));
    expect(issuePaths(await request('GET', `/content/open/${entry}/comments?cursor=nonsense`))).toEqual(['cursor']);

    // A reply whose parent is taken off the site goes with it.
    expectSuccess(await request('POST', '/comments/moderate', { ids: [reply.id], action: 'spam' }, t.adminToken));
    expect((await read('open', entry, `?limit=2&cursor=${first.nextCursor}`)).items[1].replies).toEqual([]);
  });

  it('answers from memory only while nothing changed: an entry taken off the site is a 404 at once, a comment approved elsewhere shows', async () => {
    const entry = await publish('held');
    const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);
    const held = expectCreated(await post('held', entry, visitor())).item;
    expectSuccess(await request('POST', '/comments/moderate', { ids: [held.id], action: 'approve' }, t.adminToken));
    for (let n = 0; n < 2; n += 1) expect(ids(await read('held', entry))).toEqual([held.id]);

    expectSuccess(await request('POST', `/content/held/${entry}/unpublish`, undefined, t.adminToken));
    expectError(await request('GET', `/content/held/${entry}/comments`), 404, 'NOT_FOUND');
    expectSuccess(await request('POST', `/content/held/${entry}/publish`, undefined, t.adminToken));
    expect(ids(await read('held', entry))).toEqual([held.id]);
    expectSuccess(await request('DELETE', `/content/held/${entry}`, undefined, t.adminToken));
    expectError(await request('GET', `/content/held/${entry}/comments`), 404, 'NOT_FOUND');
    expectSuccess(await request('POST', `/content/held/${entry}/restore`, undefined, t.adminToken));

    // Approved through another connection, as another process or the CLI would.
    t.clock.advance(1000);
    const later = expectCreated(await post('held', entry, visitor())).item;
    for (let n = 0; n < 2; n += 1) expect(ids(await read('held', entry))).toEqual([held.id]);
    const elsewhere = await openDatabase(t.config.database);
    try {
      await elsewhere.kysely.updateTable('comments').set({ status: 'approved' }).where('id', '=', later.id).execute();
    } finally {
      await elsewhere.close();
    }
    await t.db.changesArrived?.();
    expect(ids(await read('held', entry))).toEqual([later.id, held.id]);
  });

  it('counts approved comments per entry, zero for those without', async () => {
    const counted = await publish('open');
    const none = await publish('open');
    await post('open', counted, visitor());
    const reply = expectCreated(await post('open', counted, visitor())).item;
    await post('open', counted, visitor({ parentId: reply.id }));
    const counts = expectSuccess(await request('GET', `/comments/counts?collection=open&ids=${counted},${none}`)).counts;
    expect(counts).toEqual({ [counted]: 3, [none]: 0 });
    expect(issuePaths(await request('GET', '/comments/counts?collection=open'))).toEqual(['ids']);
  });

  it('carries a signed-in user\'s identity', async () => {
    const entry = await publish('open');
    const { user, token } = await t.userWithToken(10, ['content:read']);
    const posted = expectCreated(await post('open', entry, { body: 'Signed in', name: 'Someone else' }, token)).item;
    expect(posted).toMatchObject({ authorName: user.name, byUser: true });
    const listed = expectSuccess(await request('GET', `/comments?entryId=${entry}`, undefined, t.adminToken)).items;
    expect(listed[0]).toMatchObject({ authorUserId: user.id, authorEmail: user.email.toLowerCase() });
  });

  it('refuses with 400 naming the field, and stores nothing', async () => {
    const entry = await publish('open');
    const other = await publish('open');
    const otherComment = expectCreated(await post('open', other, visitor())).item;
    const draft = (await createEntry(t, 'open', { data: { title: 'Draft' } })).id as string;
    const quiet = await publish('quiet');
    const off = await publish('off');
    const before = await stored();
    expect(issuePaths(await post('open', entry, visitor({ body: '   ' })))).toEqual(['body']);
    expect(issuePaths(await post('open', entry, visitor({ body: 'x'.repeat(5001) })))).toEqual(['body']);
    expect(issuePaths(await post('open', entry, { body: 'No name', email: 'a@example.com' }))).toEqual(['name']);
    expect(issuePaths(await post('open', entry, { body: 'No email', name: 'A' }))).toEqual(['email']);
    expect(issuePaths(await post('open', entry, visitor({ email: 'not an email' })))).toEqual(['email']);
    expect(issuePaths(await post('open', entry, visitor({ parentId: otherComment.id })))).toEqual(['parentId']);
    expect(issuePaths(await post('open', draft, visitor()))).toEqual(['id']);
    expect(issuePaths(await post('open', 'NO-SUCH-ENTRY', visitor()))).toEqual(['id']);
    expect(issuePaths(await post('quiet', quiet, visitor()))).toEqual(['id']);
    expect(issuePaths(await post('off', off, visitor()))).toEqual(['id']);
    expect(issuePaths(await post('open', entry, visitor({ body: `${'>'.repeat(40)} deep` })))).toEqual(['body']);
    expectError(await post('nowhere', entry, visitor()), 404, 'NOT_FOUND');
    expect(await stored()).toBe(before);
    // Not readable either where the entry is not live.
    expectError(await request('GET', `/content/open/${draft}/comments`), 404, 'NOT_FOUND');
  });

  it('closes comments the given number of days after publishing', async () => {
    const entry = await publish('closing');
    t.clock.advance(13 * day);
    expectCreated(await post('closing', entry, visitor()));
    t.clock.advance(day);
    const closed = await post('closing', entry, visitor());
    expect(issuePaths(closed)).toEqual(['id']);
    expect(closed.body.error.message).toContain('closed');
  });

  it('answers a filled honeypot as accepted and stores nothing', async () => {
    const entry = await publish('open');
    const before = await stored();
    const answered = expectCreated(await post('open', entry, visitor({ honeypot: 'https://spam.example' }))).item;
    expect(answered.status).toBe('pending');
    expect(await stored()).toBe(before);
    expect((await read('open', entry)).items).toEqual([]);
  });

  it('answers 429 with Retry-After past the per-client limit, storing nothing, until the window ends', async () => {
    const entry = await publish('open');
    const same = { name: 'Bot', email: 'bot@example.com', body: 'Again' };
    for (let i = 0; i < 3; i += 1) expectCreated(await post('open', entry, same));
    const before = await stored();
    const refused = await post('open', entry, same);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await stored()).toBe(before);
    t.clock.advance(10 * 60_000);
    expectCreated(await post('open', entry, same));
  });

  it('answers 429 past the per-entry limit, whoever posts', async () => {
    const entry = await publish('open');
    for (let i = 0; i < 20; i += 1) expectCreated(await post('open', entry, visitor()));
    const refused = await post('open', entry, visitor());
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toBe('600');
    // Another entry is not limited.
    expectCreated(await post('open', await publish('open'), visitor()));
  });

  it('never lets markup through from any field', async () => {
    const entry = await publish('open');
    const attempts = [
      '<script>alert(1)</script>',
      '[click](javascript:alert(1))',
      '[click](JaVaScRiPt:alert(1))',
      '![x](https://img.example/x.png" onerror="alert(1))',
      '<img src=x onerror=alert(1)>',
      '[a](https://ok.example/"onmouseover="alert(1))',
      '`<b>code</b>`',
      '```\n</code><script>x</script>\n```',
      '<a href="https://x.example">raw</a>',
    ];
    for (const body of attempts) {
      const html = expectCreated(await post('open', entry, visitor({ body }))).item.bodyHtml as string;
      expect(html).not.toMatch(/<(script|img|iframe|b>)/i);
      expect(html).not.toMatch(/href="(?!https?:|mailto:)/i);
      expect(html).not.toMatch(/\son\w+="/i);
      expect(html).not.toContain('javascript:alert(1)"');
    }
    expect(issuePaths(await post('open', entry, visitor({ url: 'javascript:alert(1)' })))).toEqual(['url']);
    const named = expectCreated(await post('open', entry, visitor({ name: '<script>alert(1)</script>"><b>' }))).item;
    // The name is plain text in JSON: it is never rendered into the HTML of the body.
    expect(named.authorName).toBe('<script>alert(1)</script>"><b>');
    expect(named.bodyHtml).toBe('<p>Nice post</p>');
  });

  it('renders the Markdown subset once, as written', async () => {
    const entry = await publish('open');
    const body = 'Some *emphasis* and **strong**, `code`\nnext line\n\n> quoted\n\n- one\n- two\n\n1. first\n\n[a link](https://example.com/?a=1&b=2) and mailto:x@example.com\n\n# not a heading';
    const html = expectCreated(await post('open', entry, visitor({ body }))).item.bodyHtml;
    expect(html).toBe(
      '<p>Some <em>emphasis</em> and <strong>strong</strong>, <code>code</code><br>next line</p>' +
        '<blockquote><p>quoted</p></blockquote>' +
        '<ul><li>one</li><li>two</li></ul>' +
        '<ol><li>first</li></ol>' +
        '<p><a href="https://example.com/?a=1&#38;b=2" rel="nofollow ugc">a link</a> and <a href="mailto:x@example.com" rel="nofollow ugc">mailto:x@example.com</a></p>' +
        '<p># not a heading</p>',
    );
  });

  it('posts in one transaction and reads a page from the index, in a fixed number of statements', async () => {
    const entry = await publish('firsts');
    const thread = expectCreated(await post('firsts', entry, visitor())).item;
    expectSuccess(await request('POST', '/comments/moderate', { ids: [thread.id], action: 'approve' }, t.adminToken));
    await post('firsts', entry, visitor());
    const posting = await t.statementsDuring(() => post('firsts', entry, visitor()));
    // SQLite: data_version, begin, savepoint, entry, two limits, first-time check, insert, release, commit.
    expect(posting).toHaveLength(t.db.dialect === 'sqlite' ? 10 : 7);
    // Read after a change to comments (the approval above, the post): from the database, through the indexes.
    const reading = await t.statementsDuring(() => read('firsts', entry));
    // The entry, the threads, their replies (and SQLite's data_version).
    expect(reading).toHaveLength(t.db.dialect === 'sqlite' ? 4 : 3);
    if (t.db.dialect === 'sqlite') {
      const planOf = async (statement: string) => (await sql.raw<{ detail: string }>(`explain query plan ${statement.replaceAll('?', "'x'")}`).execute(t.db.kysely)).rows.map((row) => row.detail).join('\n');
      expect(await planOf(reading.find((statement) => statement.includes('"parent_id" is null'))!)).toContain('USING INDEX comments_entry_threads');
      const replies = await planOf(reading.find((statement) => statement.includes('"parent_id" is not null'))!);
      expect(replies).toContain('USING INDEX comments_thread');
      expect(replies).not.toContain('TEMP B-TREE');
    }
    // Read again with nothing changed: the page comes from memory, only the entry's state is read.
    await t.db.changesArrived?.();
    await read('firsts', entry);
    const again = await t.statementsDuring(() => read('firsts', entry));
    expect(again).toHaveLength(t.db.dialect === 'sqlite' ? 2 : 1);
  });
});
