import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';

/** The two menu tools of mcp.md over the same operations as REST: the same menus, the items flat. */
describe('menu tools', () => {
  let t: TestApp;
  let reader: string;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });
  async function call(name: string, args: unknown, token = t.adminToken, status = 200) {
    const response = await t.request('POST', `${api}/mcp`, { token, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
    expect(response.status).toBe(status);
    return response.body;
  }

  beforeAll(async () => {
    t = await createTestApp();
    reader = (await t.userWithToken(10, ['content:read'])).token;
    await createCollection(t, 'page', [{ slug: 'title', type: 'string' }], { urlPattern: '/{slug}' });
    expectCreated(await request('POST', '/menus', { name: 'main', label: 'Main' }));
    expectCreated(await request('POST', '/menus', { name: 'footer', label: 'Footer' }));
  });
  afterAll(() => t.close());

  it('menu_list lists the menus as REST does', async () => {
    const listed = (await call('menu_list', {}, reader)).result;
    expect(listed.structuredContent).toEqual(expectSuccess(await request('GET', '/menus')));
    expect(listed.structuredContent.items.map((menu: { name: string }) => menu.name)).toEqual(['footer', 'main']);
    expect(JSON.parse(listed.content[0].text)).toEqual(listed.structuredContent);
  });

  it('menu_get gives the items depth-first, each after its parent, with slug and missing where they apply', async () => {
    const about = await createEntry(t, 'page', { data: { title: 'About' }, status: 'published' });
    const team = await createEntry(t, 'page', { data: { title: 'Team' }, status: 'published' });
    const add = async (body: Record<string, unknown>) => expectCreated(await request('POST', '/menus/main/items', body)).item;
    const home = await add({ type: 'custom', label: 'Home', url: '/' });
    const aboutItem = await add({ type: 'page', referenceCollection: 'page', referenceId: about.id });
    const teamItem = await add({ type: 'page', referenceCollection: 'page', referenceId: team.id, parentId: aboutItem.id });
    const contact = await add({ type: 'custom', label: 'Contact', url: 'https://example.com/contact', parentId: aboutItem.id });
    const blog = await add({ type: 'custom', label: 'Blog', url: '/blog' });
    expectSuccess(await request('DELETE', `/content/page/${team.id}`));
    expectSuccess(await request('DELETE', `/content/page/${team.id}/permanent`));

    const menu = (await call('menu_get', { name: 'main' }, reader)).result.structuredContent.item;
    const rest = expectSuccess(await request('GET', '/menus/main')).item;
    expect(menu).toMatchObject({ name: 'main', label: 'Main', createdAt: rest.createdAt, updatedAt: rest.updatedAt });
    // The reader does not see the missing page; the editor does.
    expect(menu.items).toEqual([
      { id: home.id, label: 'Home', url: '/', type: 'custom' },
      { id: aboutItem.id, label: 'About', url: '/about', type: 'page', slug: 'about' },
      { id: contact.id, label: 'Contact', url: 'https://example.com/contact', type: 'custom', parentId: aboutItem.id },
      { id: blog.id, label: 'Blog', url: '/blog', type: 'custom' },
    ]);
    const editorView = (await call('menu_get', { name: 'main' })).result.structuredContent.item.items;
    expect(editorView.map((item: { id: string }) => item.id)).toEqual([home.id, aboutItem.id, teamItem.id, contact.id, blog.id]);
    expect(editorView[2]).toEqual({ id: teamItem.id, label: 'Team', url: null, type: 'page', parentId: aboutItem.id, missing: true });
  });

  it('answers an unknown menu with NOT_FOUND and a token without content:read with an insufficient scope', async () => {
    const unknown = (await call('menu_get', { name: 'nope' })).result;
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toMatch(/^NOT_FOUND: /);
    expect((await call('menu_get', {})).result.isError).toBe(true);
    const noRead = (await t.userWithToken(40, ['media:read'])).token;
    expect((await call('menu_list', {}, noRead, 403)).error).toMatchObject({ code: -32600, message: 'Insufficient scope: requires content:read' });
  });
});
