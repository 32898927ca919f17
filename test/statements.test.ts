import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type ApiResponse, type TestApp } from './support/harness.ts';

/**
 * The statements the hottest requests send to the database (issue 32, docs/decisions/0051), capped at
 * what they send today: one more is a regression to explain, one fewer a reason to lower the cap. The
 * bench prints the same counts per request for the served process (bench/cpu.ts), and its same-work
 * baselines (bench/same-work.ts) send exactly these statements. SQLite answers the token, the
 * collection and the settings from memory while its `data_version` says nothing changed (db/
 * read-cache.ts); PostgreSQL too, while its notifications say nothing changed (db/change-feed.ts,
 * decisions/0052). SQLite's extra statement is that `data_version`, read once per request.
 */
const caps = {
  sqlite: { get: 2, list: 2, create: 10, mcp: 2, comments: 2 },
  postgres: { get: 1, list: 1, create: 6, mcp: 1, comments: 1 },
};

describe('statements per request', () => {
  let t: TestApp;
  let entryId: string;
  let talkId: string;
  let created = 0;
  beforeAll(async () => {
    t = await createTestApp();
    // The bench's collection: six fields of mixed types, revisions on.
    await createCollection(t, 'bench', [
      { slug: 'title', type: 'string', required: true },
      { slug: 'rank', type: 'integer' },
      { slug: 'price', type: 'number' },
      { slug: 'featured', type: 'boolean' },
      { slug: 'category', type: 'select', validation: { options: ['news', 'guide', 'review'] } },
      { slug: 'body', type: 'portableText' },
    ]);
    for (let n = 0; n < 60; n += 1) entryId = (await createEntry(t, 'bench', { data: benchData(n) })).id;
    // The bench's comments (bench/comments.ts), fewer: an entry's threads with their replies.
    await createCollection(t, 'talks', [{ slug: 'title', type: 'string' }], { comments: { moderation: 'none' } });
    talkId = (await createEntry(t, 'talks', { data: { title: 'Talked about' }, status: 'published' })).id;
    for (let n = 0; n < 5; n += 1) {
      const thread = expectCreated(await t.request('POST', `${api}/content/talks/${talkId}/comments`, { body: { name: `Reader ${n}`, email: `reader${n}@example.com`, body: `Comment ${n}` } })).item;
      expectCreated(await t.request('POST', `${api}/content/talks/${talkId}/comments`, { body: { name: 'Replier', email: 'replier@example.com', body: `Reply ${n}`, parentId: thread.id } }));
    }
    // PostgreSQL: the posts' own notifications are in, so none comes back to drop what the test reads.
    await t.db.changesArrived?.();
  });
  afterAll(() => t.close());

  const benchData = (n: number) => ({ title: `Entry ${n}`, rank: n % 997, price: n / 10, featured: n % 3 === 0, category: 'guide', body: `## Entry ${n}\n\nSome *body* text.` });
  const cap = () => caps[t.db.dialect];

  /** The statements of one request, once a first one has filled what the process keeps in memory. */
  const statementsOf = async (request: () => Promise<ApiResponse>, check: (response: ApiResponse) => void) => {
    check(await request());
    let response: ApiResponse | undefined;
    const statements = await t.statementsDuring(async () => (response = await request()));
    check(response!);
    return statements;
  };
  const ok = (response: ApiResponse) => expectSuccess(response);

  it('GET of one entry', async () => {
    const statements = await statementsOf(() => t.request('GET', `${api}/content/bench/${entryId}`, { token: t.adminToken }), ok);
    expect(statements).toHaveLength(cap().get);
  });

  it('GET of a list of 50 ordered by a field', async () => {
    const statements = await statementsOf(
      () => t.request('GET', `${api}/content/bench?limit=50&orderBy=rank&order=asc`, { token: t.adminToken }),
      (response) => expect(ok(response).items).toHaveLength(50),
    );
    expect(statements).toHaveLength(cap().list);
  });

  it('POST of a new entry, with its revision', async () => {
    const statements = await statementsOf(
      () => t.request('POST', `${api}/content/bench`, { token: t.adminToken, body: { data: benchData(1000 + (created += 1)) } }),
      (response) => expectCreated(response),
    );
    expect(statements.filter((statement) => /^insert into "revisions"/.test(statement))).toHaveLength(1);
    expect(statements).toHaveLength(cap().create);
  });

  it('MCP content_get', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_get', arguments: { collection: 'bench', id: entryId } } };
    const statements = await statementsOf(
      () => t.request('POST', `${api}/mcp`, { token: t.adminToken, headers: { accept: 'application/json, text/event-stream' }, body: call }),
      (response) => expect(response.body.result.structuredContent.item.id).toBe(entryId),
    );
    expect(statements).toHaveLength(cap().mcp);
  });

  it("GET of an entry's first page of comments, threads and replies", async () => {
    const statements = await statementsOf(
      () => t.request('GET', `${api}/content/talks/${talkId}/comments?limit=50`, { token: t.adminToken }),
      (response) => expect(ok(response).items).toHaveLength(5),
    );
    expect(statements).toHaveLength(cap().comments);
  });
});
