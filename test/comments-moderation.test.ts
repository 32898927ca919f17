import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { createPluginTestApp, deliveryWorker, startReceiver } from './support/plugins.ts';
import { until } from './support/poll.ts';

/** Editors' side of comments: the queue, bulk moderation, edits, replies as the site, access, MCP tools, webhooks. */
describe('comment moderation', () => {
  let t: TestApp;
  let editor: { user: { id: string; name: string; email: string }; token: string };
  let author: string;
  let reader: string;
  let entry: string;
  let emails = 0;
  const request = (method: string, path: string, body?: unknown, token: string | null = editor.token) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const post = async (body: Record<string, unknown> = {}) =>
    expectCreated(await t.request('POST', `${api}/content/posts/${entry}/comments`, { body: { name: 'Ada', email: `ada${++emails}@example.com`, body: 'Nice post', ...body } })).item;
  const queue = async (query = '') => expectSuccess(await request('GET', `/comments${query}`)).items as { id: string; status: string }[];
  const ids = (items: { id: string }[]) => items.map((item) => item.id);
  async function call(name: string, args: unknown, token = editor.token, status = 200) {
    const response = await t.request('POST', `${api}/mcp`, { token, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
    expect(response.status).toBe(status);
    return response.body;
  }

  beforeAll(async () => {
    t = await createPluginTestApp({ COMMENT_CLIENT_LIMIT: '1000' });
    editor = await t.userWithToken(40, ['content:read', 'content:write']);
    author = (await t.userWithToken(30, ['content:read', 'content:write'])).token;
    reader = (await t.userWithToken(10, ['content:read'])).token;
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }], { comments: { moderation: 'all' } });
    entry = (await createEntry(t, 'posts', { data: { title: 'Hello' }, status: 'published' })).id;
  });
  afterAll(() => t.close());

  it('lists the queue newest first, filtered by status, entry and text, a page at a time', async () => {
    const first = await post({ body: 'About gardening' });
    t.clock.advance(1000);
    const second = await post({ name: 'Grace Hopper', body: 'Compilers!' });
    t.clock.advance(1000);
    const third = await post({ email: 'spammer@shady.example', body: 'Buy now' });
    expectSuccess(await request('POST', '/comments/moderate', { ids: [third.id], action: 'spam' }));

    expect(ids(await queue(`?entryId=${entry}&status=pending`)).slice(0, 2)).toEqual([second.id, first.id]);
    expect(ids(await queue('?status=spam'))).toEqual([third.id]);
    expect(ids(await queue('?q=GARDEN'))).toEqual([first.id]);
    expect(ids(await queue('?q=grace hop'))).toEqual([second.id]);
    expect(ids(await queue('?q=shady.example'))).toEqual([third.id]);
    const page = expectSuccess(await request('GET', `/comments?entryId=${entry}&limit=2`));
    expect(ids(page.items)).toEqual([third.id, second.id]);
    expect(ids(expectSuccess(await request('GET', `/comments?entryId=${entry}&limit=2&cursor=${page.nextCursor}`)).items)[0]).toBe(first.id);
    const item = (await queue(`?q=shady`))[0]!;
    expect(item).toMatchObject({ collection: 'posts', entryId: entry, status: 'spam', authorEmail: 'spammer@shady.example', body: 'Buy now' });
    expect(issuePaths(await request('GET', '/comments?status=deleted'))).toEqual(['status']);
  });

  it('approves, holds, marks as spam, trashes and deletes in bulk', async () => {
    const a = await post();
    const b = await post();
    const reply = await post({ body: 'reply' });
    expect(expectSuccess(await request('POST', '/comments/moderate', { ids: [a.id, b.id], action: 'approve' }))).toEqual({ changed: 2 });
    // Already approved: nothing changes.
    expect(expectSuccess(await request('POST', '/comments/moderate', { ids: [a.id], action: 'approve' }))).toEqual({ changed: 0 });
    const answer = await post({ parentId: a.id, body: 'An answer' });
    expectSuccess(await request('POST', '/comments/moderate', { ids: [answer.id], action: 'approve' }));
    expect(expectSuccess(await request('GET', `/comments/${a.id}`)).item.status).toBe('approved');
    expectSuccess(await request('POST', '/comments/moderate', { ids: [b.id], action: 'trash' }));
    expect(expectSuccess(await request('GET', `/comments/${b.id}`)).item.status).toBe('trash');
    expectSuccess(await request('POST', '/comments/moderate', { ids: [b.id], action: 'pending' }));
    expect(expectSuccess(await request('GET', `/comments/${b.id}`)).item.status).toBe('pending');
    // Deleting a comment deletes its replies.
    expect(expectSuccess(await request('POST', '/comments/moderate', { ids: [a.id, reply.id], action: 'delete' }))).toEqual({ changed: 2 });
    expectError(await request('GET', `/comments/${a.id}`), 404, 'NOT_FOUND');
    expectError(await request('GET', `/comments/${answer.id}`), 404, 'NOT_FOUND');
    expect(issuePaths(await request('POST', '/comments/moderate', { ids: [], action: 'approve' }))).toEqual(['ids']);
    expect(issuePaths(await request('POST', '/comments/moderate', { ids: [b.id], action: 'burn' }))).toEqual(['action']);
  });

  it("edits a comment, rendering its body again", async () => {
    const comment = await post();
    t.clock.advance(1000);
    const edited = expectSuccess(await request('PATCH', `/comments/${comment.id}`, { body: 'Edited *gently*', authorName: 'Ada L.', authorUrl: 'https://ada.example/' })).item;
    expect(edited).toMatchObject({ body: 'Edited *gently*', bodyHtml: '<p>Edited <em>gently</em></p>', authorName: 'Ada L.', authorUrl: 'https://ada.example/' });
    expect(edited.updatedAt > edited.createdAt).toBe(true);
    expect(issuePaths(await request('PATCH', `/comments/${comment.id}`, { body: '' }))).toEqual(['body']);
    expect(issuePaths(await request('PATCH', `/comments/${comment.id}`, { authorUrl: 'javascript:alert(1)' }))).toEqual(['authorUrl']);
    expectError(await request('PATCH', '/comments/NOPE', { body: 'x' }), 404, 'NOT_FOUND');
  });

  it("replies as the site: approved at once, in the editor's name", async () => {
    const comment = await post();
    const reply = expectCreated(await request('POST', `/comments/${comment.id}/replies`, { body: 'Thanks!' })).item;
    expect(reply).toMatchObject({ parentId: comment.id, status: 'approved', authorName: editor.user.name, authorUserId: editor.user.id, byUser: true, entryId: entry });
    expectSuccess(await request('POST', '/comments/moderate', { ids: [comment.id], action: 'approve' }));
    await request('POST', '/settings', { publicRead: true }, t.adminToken);
    const threads = expectSuccess(await t.request('GET', `${api}/content/posts/${entry}/comments?limit=100`)).items as { id: string; replies: { id: string }[] }[];
    expect(threads.find((thread) => thread.id === comment.id)!.replies.map((item) => item.id)).toEqual([reply.id]);
  });

  it('takes the Editor role: 401 without a token, 403 below Editor or without the scope', async () => {
    const comment = await post();
    expectError(await request('GET', '/comments', undefined, null), 401, 'UNAUTHORIZED');
    expectError(await request('POST', '/comments/moderate', { ids: [comment.id], action: 'approve' }, null), 401, 'UNAUTHORIZED');
    expectError(await request('GET', '/comments', undefined, author), 403, 'FORBIDDEN');
    expectError(await request('POST', '/comments/moderate', { ids: [comment.id], action: 'approve' }, author), 403, 'FORBIDDEN');
    expectError(await request('PATCH', `/comments/${comment.id}`, { body: 'x' }, author), 403, 'FORBIDDEN');
    expectError(await request('POST', `/comments/${comment.id}/replies`, { body: 'x' }, author), 403, 'FORBIDDEN');
    const readOnlyEditor = (await t.userWithToken(40, ['content:read'])).token;
    expectError(await request('POST', '/comments/moderate', { ids: [comment.id], action: 'approve' }, readOnlyEditor), 403, 'FORBIDDEN');
    expectError(await request('GET', `/comments/${comment.id}`, undefined, reader), 403, 'FORBIDDEN');
  });

  it('offers the queue, moderation, edits and replies as MCP tools, with the same access', async () => {
    const comment = await post({ body: 'Via MCP' });
    const listed = (await call('comment_list', { q: 'via mcp' })).result;
    expect(listed.structuredContent).toEqual(expectSuccess(await request('GET', '/comments?q=via%20mcp')));
    expect(ids(listed.structuredContent.items)).toEqual([comment.id]);
    expect((await call('comment_moderate', { ids: [comment.id], action: 'approve' })).result.structuredContent).toEqual({ changed: 1 });
    expect((await call('comment_update', { id: comment.id, body: 'Via **MCP**' })).result.structuredContent.item.bodyHtml).toBe('<p>Via <strong>MCP</strong></p>');
    expect((await call('comment_reply', { id: comment.id, body: 'Answered' })).result.structuredContent.item).toMatchObject({ parentId: comment.id, status: 'approved' });
    // A role below Editor is refused before the tool runs, as a JSON-RPC error.
    expect((await call('comment_moderate', { ids: [comment.id], action: 'approve' }, author)).error).toMatchObject({ code: -32600, message: 'Insufficient role: requires Editor' });
    expect((await call('comment_list', {}, (await t.userWithToken(40, ['media:read'])).token, 403)).error.message).toBe('Insufficient scope: requires content:read');
  });

  it('sends comment.created and comment.approved to webhooks', async () => {
    const receiver = await startReceiver();
    try {
      expectCreated(await t.request('POST', `${api}/plugins/webhooks/subscriptions`, { token: t.adminToken, body: { url: receiver.url, events: ['comment.created', 'comment.approved'] } }));
      const comment = await post({ body: 'Hook me', email: 'hooked@example.com' });
      expectSuccess(await request('POST', '/comments/moderate', { ids: [comment.id], action: 'approve' }));
      // Events of the earlier tests still queued go to the subscription too, so the worker may take more
      // than one pass (a batch at a time) to reach this comment's: it runs until both have come.
      const worker = deliveryWorker(t);
      const mine = () =>
        receiver.received
          .map((delivery) => JSON.parse(delivery.body) as { type: string; data: { comment: { id: string; status: string } } })
          .filter((body) => body.data.comment.id === comment.id);
      await until(async () => {
        await worker.runDue();
        return mine().length >= 2;
        // Each pass delivers over HTTP; under a full CI run's load several passes take seconds.
      }, "this comment's two deliveries", 30_000);
      expect(mine().map((body) => [body.type, body.data.comment.id, body.data.comment.status])).toEqual([
        ['comment.created', comment.id, 'pending'],
        ['comment.approved', comment.id, 'approved'],
      ]);
      expect(receiver.received.map((delivery) => delivery.body).join()).not.toContain('hooked@example.com');
    } finally {
      await receiver.close();
    }
  });

  it('deletes the comments of an entry deleted for good, and keeps those of one in the trash', async () => {
    const doomed = (await createEntry(t, 'posts', { data: { title: 'Doomed' }, status: 'published' })).id as string;
    const comment = expectCreated(await t.request('POST', `${api}/content/posts/${doomed}/comments`, { body: { name: 'Ada', email: 'doomed@example.com', body: 'Bye' } })).item;
    expectSuccess(await request('DELETE', `/content/posts/${doomed}`, undefined, t.adminToken));
    expect(expectSuccess(await request('GET', `/comments/${comment.id}`)).item.entryId).toBe(doomed);
    expectSuccess(await request('DELETE', `/content/posts/${doomed}/permanent`, undefined, t.adminToken));
    expectError(await request('GET', `/comments/${comment.id}`), 404, 'NOT_FOUND');
  });
});
