import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { serveMcp, type McpSocket } from './support/mcp.ts';
import { until } from './support/poll.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/** Redirects (issue 34, docs/decisions/0057): CRUD, refusals, the public lookup, entries' moves and MCP. */
describe('redirects', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const create = async (body: Json) => expectCreated(await request('POST', '/redirects', body, writer)).item;
  const lookup = (path: string) => request('GET', `/redirects/lookup?path=${encodeURIComponent(path)}`, undefined, null);
  const redirectFrom = async (from: string): Promise<Json | undefined> => {
    const { items } = expectSuccess(await request('GET', `/redirects?search=${encodeURIComponent(from)}&limit=100`));
    return items.find((item: Json) => item.from === from);
  };

  beforeAll(async () => {
    t = await createTestApp();
    writer = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
    reader = (await t.userWithToken(10, ['content:read'])).token;
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }], { urlPattern: '/blog/{slug}', supports: ['drafts'] });
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }]);
  });
  afterAll(() => t.close());

  it('creates, reads, lists, changes and deletes a redirect, keeping from in its normalized form', async () => {
    const created = await create({ from: 'https://old.example/Caf%c3%a9//menu/', to: '/cafe/menu' });
    expect(created).toMatchObject({ from: '/Caf%C3%A9/menu', to: '/cafe/menu', status: 301, source: 'manual', targetMissing: false, hits: 0, lastHitAt: null });
    expect(created.entry).toBeUndefined();
    expect(created.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(expectSuccess(await request('GET', `/redirects/${created.id}`, undefined, reader)).item).toEqual(created);
    expect(await redirectFrom('/Caf%C3%A9/menu')).toEqual(created);

    t.clock.advance(1000);
    const changed = expectSuccess(await request('PUT', `/redirects/${created.id}`, { to: 'https://elsewhere.example/menu?x=1', status: 302 }, writer)).item;
    expect(changed).toMatchObject({ id: created.id, from: '/Caf%C3%A9/menu', to: 'https://elsewhere.example/menu?x=1', status: 302 });
    expect(changed.updatedAt > created.updatedAt).toBe(true);
    expect(expectSuccess(await request('DELETE', `/redirects/${created.id}`, undefined, writer))).toEqual({ success: true });
    expectError(await request('GET', `/redirects/${created.id}`), 404, 'NOT_FOUND');
  });

  it('pages the list by from with a cursor, and filters it by text', async () => {
    for (const from of ['/list-c', '/list-a', '/list-b']) await create({ from, to: '/list-target' });
    const first = expectSuccess(await request('GET', '/redirects?search=list-&limit=2', undefined, reader));
    expect(first.items.map((item: Json) => item.from)).toEqual(['/list-a', '/list-b']);
    const second = expectSuccess(await request('GET', `/redirects?search=list-&limit=2&cursor=${first.nextCursor}`, undefined, reader));
    expect(second.items.map((item: Json) => item.from)).toEqual(['/list-c']);
    expect(second.nextCursor).toBeUndefined();
    expect(expectSuccess(await request('GET', '/redirects?search=LIST-TARGET')).items).toHaveLength(3);
  });

  it('refuses bad input with a 400 naming the field, and a from that exists with a 409', async () => {
    const refused = async (body: Json, field: string) => {
      const response = await request('POST', '/redirects', body, writer);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(issuePaths(response)).toEqual([field]);
    };
    await refused({ from: '/old?p=1', to: '/new' }, 'from');
    await refused({ from: 'mailto:someone@example.com', to: '/new' }, 'from');
    await refused({ from: '/bad%zzencoding', to: '/new' }, 'from');
    await refused({ from: '/old', to: 'javascript:alert(1)' }, 'to');
    await refused({ from: '/old', to: 'ftp://files.example/x' }, 'to');
    await refused({ from: '/old', to: '//other.example/x' }, 'to');
    await refused({ from: '/old', to: '/new', status: 307 }, 'status');
    await refused({ from: '/old', to: '/new', extra: true }, 'extra');

    await create({ from: '/taken', to: '/somewhere' });
    expectError(await request('POST', '/redirects', { from: '/taken/', to: '/elsewhere' }, writer), 409, 'CONFLICT');
    const other = await create({ from: '/not-taken', to: '/somewhere' });
    expectError(await request('PUT', `/redirects/${other.id}`, { from: '/taken' }, writer), 409, 'CONFLICT');
  });

  it('refuses loops: to itself, back from the target, and through a chain', async () => {
    const loop = async (response: Promise<Json>) => {
      const answer = await response;
      expectError(answer as never, 400, 'VALIDATION_ERROR');
      expect(issuePaths(answer as never)).toEqual(['to']);
    };
    await loop(request('POST', '/redirects', { from: '/self', to: '/self/' }, writer));
    await create({ from: '/loop-a', to: '/loop-b' });
    await loop(request('POST', '/redirects', { from: '/loop-b', to: '/loop-a?from=b' }, writer));
    await create({ from: '/loop-b', to: '/loop-c' });
    await loop(request('POST', '/redirects', { from: '/loop-c', to: '/loop-a' }, writer));
    const c = await create({ from: '/loop-c', to: '/loop-d' });
    await loop(request('PUT', `/redirects/${c.id}`, { to: '/loop-a' }, writer));
    // A chain to another site ends there.
    expect((await create({ from: '/loop-d', to: 'https://loop-a.example/loop-a' })).to).toBe('https://loop-a.example/loop-a');
  });

  it('asks for a token (401) and content:write (403) to manage, content:read to read', async () => {
    expectError(await request('GET', '/redirects', undefined, null), 401, 'UNAUTHORIZED');
    expectError(await request('POST', '/redirects', { from: '/a', to: '/b' }, null), 401, 'UNAUTHORIZED');
    const refused = await request('POST', '/redirects', { from: '/a', to: '/b' }, reader);
    expectError(refused, 403, 'FORBIDDEN');
    expect(refused.body.error.details).toEqual({ requiredScope: 'content:write' });
    const existing = await create({ from: '/kept', to: '/b' });
    expectError(await request('PUT', `/redirects/${existing.id}`, { to: '/c' }, reader), 403, 'FORBIDDEN');
    expectError(await request('DELETE', `/redirects/${existing.id}`, undefined, reader), 403, 'FORBIDDEN');
    expect(expectSuccess(await request('GET', `/redirects/${existing.id}`, undefined, reader)).item.to).toBe('/b');
  });

  it('answers the public lookup with to and status, counts the hit soon after, and 404s an unknown path', async () => {
    const redirect = await create({ from: '/old-post', to: '/blog/new-post', status: 302 });
    const found = await lookup('/old-post/?utm_source=feed');
    expect(expectSuccess(found)).toEqual({ to: '/blog/new-post', status: 302 });
    expectSuccess(await lookup('https://any-host.example/old-post'));
    await until(async () => expectSuccess(await request('GET', `/redirects/${redirect.id}`)).item.hits === 2, 'two hits counted');
    expect(expectSuccess(await request('GET', `/redirects/${redirect.id}`)).item.lastHitAt).toBe(t.clock.now().toISOString());
    expectError(await lookup('/never-was'), 404, 'NOT_FOUND');
    expectError(await request('GET', '/redirects/lookup', undefined, null), 400, 'VALIDATION_ERROR');
    // A changed redirect is answered as it is now, not as the lookup saw it before.
    expectSuccess(await request('PUT', `/redirects/${redirect.id}`, { to: '/blog/newer-post' }, writer));
    expect(expectSuccess(await lookup('/old-post')).to).toBe('/blog/newer-post');
    expectSuccess(await request('DELETE', `/redirects/${redirect.id}`, undefined, writer));
    expectError(await lookup('/old-post'), 404, 'NOT_FOUND');
  });

  it('looks an unknown path up in one indexed read, and a known one from memory once it was read', async () => {
    const redirect = await create({ from: '/remembered', to: '/here' });
    const readsOf = async (path: string) => {
      const statements = await t.statementsDuring(async () => lookup(path));
      return statements.filter((statement) => /from "redirects" where "from_path" = /.test(statement));
    };
    expect(await readsOf('/not-a-redirect')).toHaveLength(1);
    await t.db.changesArrived?.();
    expect(await readsOf('/remembered')).toHaveLength(1);
    expect(await readsOf('/remembered/')).toHaveLength(0);
    await until(async () => expectSuccess(await request('GET', `/redirects/${redirect.id}`)).item.hits === 2, 'both hits counted');
    // Counting hits does not make the remembered answer stale.
    expect(await readsOf('/remembered')).toHaveLength(0);
  });

  it('is in the OpenAPI document, the lookup without a credential', async () => {
    const { paths } = (await t.request('GET', `${api}/openapi.json`)).body;
    expect(Object.keys(paths['/_cms/api/redirects']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/_cms/api/redirects/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(paths['/_cms/api/redirects/lookup'].get.security).toEqual([]);
    expect(paths['/_cms/api/redirects'].post.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
  });

  describe('entries that move', () => {
    const rename = async (id: string, slug: string) => expectSuccess(await request('PUT', `/content/posts/${id}`, { slug }, writer)).item;

    it("records a redirect when a published entry's slug changes, and none when it changes back", async () => {
      const post = await createEntry(t, 'posts', { data: { title: 'First name' }, status: 'published' });
      const manual = await create({ from: '/earlier-link', to: `/blog/${post.slug}` });
      await rename(post.id, 'second-name');
      expect(await redirectFrom(`/blog/${post.slug}`)).toMatchObject({ to: '/blog/second-name', status: 301, source: 'automatic', entry: { collection: 'posts', id: post.id }, targetMissing: false });
      // The older redirect leads to the new address at once: no chain.
      expect((await redirectFrom('/earlier-link'))!.to).toBe('/blog/second-name');
      expect(expectSuccess(await lookup(`/blog/${post.slug}/`))).toEqual({ to: '/blog/second-name', status: 301 });

      await rename(post.id, post.slug);
      expect(await redirectFrom(`/blog/${post.slug}`)).toBeUndefined();
      expect((await redirectFrom('/blog/second-name'))!.to).toBe(`/blog/${post.slug}`);
      expect(expectSuccess(await request('GET', `/redirects/${manual.id}`)).item.to).toBe(`/blog/${post.slug}`);
      expectError(await lookup(`/blog/${post.slug}`), 404, 'NOT_FOUND');
    });

    it("records none for a draft's slug change, nor in a collection without a URL pattern", async () => {
      const draft = await createEntry(t, 'posts', { data: { title: 'Draft name' } });
      await rename(draft.id, 'draft-renamed');
      expect(await redirectFrom('/blog/draft-name')).toBeUndefined();
      const note = await createEntry(t, 'notes', { data: { title: 'A note' }, status: 'published' });
      expectSuccess(await request('PUT', `/content/notes/${note.id}`, { slug: 'a-note-renamed' }));
      expect(expectSuccess(await request('GET', '/redirects?search=note&limit=100')).items).toEqual([]);
    });

    it('flags the redirects to an entry in the trash or deleted, and clears the flag on restore', async () => {
      const post = await createEntry(t, 'posts', { data: { title: 'Going away' }, status: 'published' });
      await rename(post.id, 'gone-away');
      const redirect = (await redirectFrom('/blog/going-away'))!;
      const missing = async () => expectSuccess(await request('GET', `/redirects/${redirect.id}`)).item.targetMissing;
      expectSuccess(await request('DELETE', `/content/posts/${post.id}`));
      expect(await missing()).toBe(true);
      const flagged = expectSuccess(await request('GET', '/redirects?targetMissing=true&limit=100')).items.map((item: Json) => item.id);
      expect(flagged).toEqual([redirect.id]);
      expect(expectSuccess(await request('GET', '/redirects?targetMissing=false&limit=100')).items.map((item: Json) => item.id)).not.toContain(redirect.id);
      expectSuccess(await request('POST', `/content/posts/${post.id}/restore`));
      expect(await missing()).toBe(false);
      expectSuccess(await request('DELETE', `/content/posts/${post.id}`));
      expectSuccess(await request('DELETE', `/content/posts/${post.id}/permanent`));
      expect(await missing()).toBe(true);
      // Still answered: taking it away is the editor's call.
      expectSuccess(await lookup('/blog/going-away'));
    });

    it('flags the redirects to the entries of a collection deleted with its content', async () => {
      await createCollection(t, 'recipes', [{ slug: 'title', type: 'string' }], { urlPattern: '/recipes/{slug}' });
      const recipe = await createEntry(t, 'recipes', { data: { title: 'Old soup' }, status: 'published' });
      expectSuccess(await request('PUT', `/content/recipes/${recipe.id}`, { slug: 'new-soup' }));
      const redirect = (await redirectFrom('/recipes/old-soup'))!;
      expect(redirect.targetMissing).toBe(false);
      expectSuccess(await request('DELETE', '/schema/collections/recipes?force=true'));
      expect(expectSuccess(await request('GET', `/redirects/${redirect.id}`)).item.targetMissing).toBe(true);
      expect(expectSuccess(await request('GET', '/redirects?targetMissing=true&limit=100')).items.map((item: Json) => item.id)).toContain(redirect.id);
    });
  });

  describe('over MCP', () => {
    let socket: McpSocket;
    beforeAll(async () => {
      socket = await serveMcp(t);
    });
    afterAll(() => socket.close());

    it('creates, lists, gets, changes and deletes redirects with the REST shapes', async () => {
      const client = await socket.connect(writer);
      const call = async (name: string, args: Json) => client.callTool({ name, arguments: args }) as Promise<Json>;
      const created = (await call('redirect_create', { from: '/mcp-old/', to: '/mcp-new' })).structuredContent.item;
      expect(created).toMatchObject({ from: '/mcp-old', to: '/mcp-new', status: 301, source: 'manual' });
      expect((await call('redirect_get', { id: created.id })).structuredContent).toEqual(expectSuccess(await request('GET', `/redirects/${created.id}`)));
      expect((await call('redirect_list', { search: 'mcp-', limit: 10 })).structuredContent.items.map((item: Json) => item.id)).toEqual([created.id]);
      expect((await call('redirect_update', { id: created.id, status: 302 })).structuredContent.item.status).toBe(302);
      const loop = await call('redirect_create', { from: '/mcp-new', to: '/mcp-old' });
      expect(loop.isError).toBe(true);
      expect(loop.content[0].text).toMatch(/^VALIDATION_ERROR: /);
      expect((await call('redirect_delete', { id: created.id })).structuredContent).toEqual({ success: true });

      const readOnly = await socket.connect(reader);
      await expect(readOnly.callTool({ name: 'redirect_create', arguments: { from: '/x', to: '/y' } })).rejects.toThrow(/Insufficient scope/);
    });
  });
});
