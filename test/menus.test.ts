import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/** Menus and their items, links resolved on read, URL patterns and who sees what, over REST. */
describe('menus', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;
  let noRead: string;
  let about: { id: string; slug: string };
  let hello: { id: string; slug: string };
  let news: { id: string; slug: string };
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const createMenu = async (name: string, label = name) => expectCreated(await request('POST', '/menus', { name, label })).item;
  const addItem = async (menu: string, body: Record<string, unknown>, token = t.adminToken) => expectCreated(await request('POST', `/menus/${menu}/items`, body, token)).item;
  const readMenu = async (menu: string, token: string | null = t.adminToken) => expectSuccess(await request('GET', `/menus/${menu}`, undefined, token)).item;
  type TreeItem = { label: string; children: TreeItem[] };
  /** Labels as nested arrays: a leaf is its label, a parent `[label, children]`. */
  const outline = (items: TreeItem[]): unknown[] => items.map((item) => (item.children.length > 0 ? [item.label, outline(item.children)] : item.label));
  const setPublicRead = async (value: boolean) => expectSuccess(await request('POST', '/settings', { publicRead: value }));

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'page', [{ slug: 'title', type: 'string' }], { urlPattern: '/{slug}' });
    await createCollection(t, 'post', [{ slug: 'title', type: 'string' }], { urlPattern: '/blog/{slug}' });
    writer = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
    reader = (await t.userWithToken(10, ['content:read'])).token;
    noRead = (await t.userWithToken(40, ['media:read'])).token;
    about = await createEntry(t, 'page', { data: { title: 'About us' }, status: 'published' });
    hello = await createEntry(t, 'post', { data: { title: 'Hello world' }, status: 'published' });
    expectCreated(await request('POST', '/taxonomies', { name: 'category', label: 'Categories', hierarchical: true, collections: ['post'], urlPattern: '/category/{slug}' }));
    news = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'news', label: 'News' })).item;
  });
  afterAll(() => t.close());

  describe('menus themselves', () => {
    it('creates, lists, reads, renames and deletes a menu, its items with it', async () => {
      const created = await createMenu('main', 'Main navigation');
      expect(created).toEqual({ name: 'main', label: 'Main navigation', createdAt: expect.any(String), updatedAt: created.createdAt });
      await createMenu('footer', 'Footer');
      expect(expectSuccess(await request('GET', '/menus', undefined, reader)).items.map((menu: { name: string }) => menu.name)).toEqual(['footer', 'main']);
      expect(await readMenu('main', reader)).toEqual({ ...created, items: [] });
      const renamed = expectSuccess(await request('PUT', '/menus/footer', { name: 'footer-links', label: 'Footer links' }, writer)).item;
      expect(renamed).toMatchObject({ name: 'footer-links', label: 'Footer links' });
      expectError(await request('GET', '/menus/footer'), 404, 'NOT_FOUND');
      const item = await addItem('footer-links', { type: 'custom', label: 'Home', url: '/' });
      expect((await readMenu('footer-links')).items.map((entry: { id: string }) => entry.id)).toEqual([item.id]);
      expect(expectSuccess(await request('DELETE', '/menus/footer-links', undefined, writer))).toEqual({ success: true });
      expectError(await request('GET', '/menus/footer-links'), 404, 'NOT_FOUND');
      expect(await t.db.kysely.selectFrom('menu_items').select('id').where('id', '=', item.id).execute()).toEqual([]);
    });

    it('refuses a taken name (409), a name that is not URL-safe (400), and an unknown menu (404)', async () => {
      await createMenu('taken');
      await createMenu('other');
      expectError(await request('POST', '/menus', { name: 'taken', label: 'Again' }), 409, 'CONFLICT');
      expectError(await request('PUT', '/menus/other', { name: 'taken' }), 409, 'CONFLICT');
      expect(issuePaths(await request('POST', '/menus', { name: 'Bad Name', label: '' }))).toEqual(['name', 'label']);
      expect(issuePaths(await request('POST', '/menus', { name: `m${'x'.repeat(63)}`, label: 'Long' }))).toEqual(['name']);
      expect(issuePaths(await request('POST', '/menus', { name: '-dash', label: 'Dash', extra: 1 }))).toEqual(['name', 'extra']);
      expect(issuePaths(await request('PUT', '/menus/other', { name: 'no/slash' }))).toEqual(['name']);
      for (const [method, path, body] of [
        ['GET', '/menus/nope', undefined],
        ['PUT', '/menus/nope', { label: 'x' }],
        ['DELETE', '/menus/nope', undefined],
        ['POST', '/menus/nope/items', { type: 'custom', label: 'x', url: '/' }],
        ['POST', '/menus/nope/reorder', { items: [] }],
      ] as const) {
        expectError(await request(method, path, body), 404, 'NOT_FOUND');
      }
    });

    it('needs a token (401), content:read to read and content:write to write (403)', async () => {
      await createMenu('guarded');
      const item = await addItem('guarded', { type: 'custom', label: 'Home', url: '/' });
      expectError(await request('GET', '/menus', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('GET', '/menus/guarded', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('POST', '/menus', { name: 'x', label: 'X' }, null), 401, 'UNAUTHORIZED');
      expect(expectError(await request('GET', '/menus/guarded', undefined, noRead), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:read' });
      for (const [method, path, body] of [
        ['POST', '/menus', { name: 'x', label: 'X' }],
        ['PUT', '/menus/guarded', { label: 'X' }],
        ['DELETE', '/menus/guarded', undefined],
        ['POST', '/menus/guarded/items', { type: 'custom', label: 'x', url: '/' }],
        ['PUT', `/menus/guarded/items/${item.id}`, { label: 'x' }],
        ['DELETE', `/menus/guarded/items/${item.id}`, undefined],
        ['POST', '/menus/guarded/reorder', { items: [] }],
      ] as const) {
        expect(expectError(await request(method, path, body, reader), 403, 'FORBIDDEN').details, `${method} ${path}`).toEqual({ requiredScope: 'content:write' });
      }
      // An Editor's token without the scope is refused as the Subscriber's is.
      const editorReadOnly = (await t.userWithToken(40, ['content:read'])).token;
      expect(expectError(await request('POST', '/menus/guarded/items', { type: 'custom', label: 'x', url: '/' }, editorReadOnly), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:write' });
      expect(outline((await readMenu('guarded')).items)).toEqual(['Home']);
    });

    it('lets the public read menus while publicRead is on, and stops the moment it is off', async () => {
      await createMenu('public-nav');
      await addItem('public-nav', { type: 'page', referenceCollection: 'page', referenceId: about.slug });
      expectError(await request('GET', '/menus/public-nav', undefined, null), 401, 'UNAUTHORIZED');
      await setPublicRead(true);
      try {
        expect(expectSuccess(await request('GET', '/menus', undefined, null)).items.map((menu: { name: string }) => menu.name)).toContain('public-nav');
        expect(outline((await readMenu('public-nav', null)).items)).toEqual(['About us']);
        expectError(await request('POST', '/menus', { name: 'anon', label: 'Anon' }, null), 401, 'UNAUTHORIZED');
      } finally {
        await setPublicRead(false);
      }
      expectError(await request('GET', '/menus/public-nav', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('GET', '/menus', undefined, null), 401, 'UNAUTHORIZED');
    });
  });

  describe('items', () => {
    it('adds a link to a page, a post, a term and any address, and reads them nested in order', async () => {
      await createMenu('site');
      const home = await addItem('site', { type: 'custom', label: 'Home', url: '/', target: '_self', titleAttribute: 'Start here', cssClasses: 'nav-home highlight', description: 'The front page' });
      const aboutItem = await addItem('site', { type: 'page', referenceCollection: 'page', referenceId: about.slug }, writer);
      const blog = await addItem('site', { type: 'custom', label: 'Blog', url: 'https://example.com/blog', target: '_blank' });
      const post = await addItem('site', { type: 'post', referenceCollection: 'post', referenceId: hello.id, parentId: blog.id, label: 'Hi' });
      const term = await addItem('site', { type: 'taxonomy', referenceCollection: 'category', referenceId: 'news', parentId: blog.id, sortOrder: 0 });
      await addItem('site', { type: 'custom', label: 'First', url: '/first', sortOrder: 0 });

      expect(home).toEqual({
        id: expect.any(String), parentId: null, sortOrder: 0, type: 'custom', label: 'Home', url: '/', referenceCollection: null, referenceId: null, slug: null,
        target: '_self', titleAttribute: 'Start here', cssClasses: 'nav-home highlight', description: 'The front page',
      });
      expect(aboutItem).toMatchObject({ sortOrder: 1, type: 'page', label: 'About us', url: '/about-us', referenceCollection: 'page', referenceId: about.id, slug: 'about-us', status: 'published' });
      expect(post).toMatchObject({ parentId: blog.id, sortOrder: 0, label: 'Hi', url: '/blog/hello-world', referenceId: hello.id, status: 'published' });
      expect(term).toMatchObject({ parentId: blog.id, sortOrder: 0, type: 'taxonomy', label: 'News', url: '/category/news', referenceCollection: 'category', referenceId: news.id, slug: 'news' });
      expect(term).not.toHaveProperty('status');

      const menu = await readMenu('site');
      // Equal sortOrders keep the order the items were added in.
      expect(outline(menu.items)).toEqual(['Home', 'First', 'About us', ['Blog', ['Hi', 'News']]]);
      const blogItem = menu.items[3];
      expect(blogItem).toMatchObject({ id: blog.id, parentId: null, sortOrder: 2, target: '_blank', url: 'https://example.com/blog' });
      expect(blogItem.children[1]).toEqual({ ...term, children: [] });
      expect(menu.items[0]).toEqual({ ...home, children: [] });
    });

    it('takes page and post as kinds of entry whatever their collection is called, as a moved WordPress menu names them', async () => {
      await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }], { urlPattern: '/p/{slug}' });
      const contact = await createEntry(t, 'pages', { data: { title: 'Contact' }, status: 'published' });
      await createMenu('moved');
      const item = await addItem('moved', { type: 'page', referenceCollection: 'pages', referenceId: contact.id }, writer);
      expect(item).toMatchObject({ type: 'page', label: 'Contact', url: '/p/contact', referenceCollection: 'pages', referenceId: contact.id, status: 'published' });
      const own = await addItem('moved', { type: 'pages', referenceCollection: 'pages', referenceId: 'contact', label: 'By its slug' });
      expect(own).toMatchObject({ type: 'pages', url: '/p/contact', referenceCollection: 'pages', referenceId: contact.id });
      expect((await readMenu('moved')).items.map((entry: { url: string }) => entry.url)).toEqual(['/p/contact', '/p/contact']);
      expect(issuePaths(await request('POST', '/menus/moved/items', { type: 'pages', referenceCollection: 'page', referenceId: about.id }))).toEqual(['referenceCollection']);
    });

    it('refuses an unknown type, a missing or mismatched target and a malformed link (400)', async () => {
      await createMenu('strict');
      const other = await createMenu('elsewhere');
      const foreign = await addItem('elsewhere', { type: 'custom', label: 'Foreign', url: '/x' });
      const trashed = await createEntry(t, 'page', { data: { title: 'Binned' } });
      expectSuccess(await request('DELETE', `/content/page/${trashed.id}`));
      const cases: [Record<string, unknown>, string[]][] = [
        [{ type: 'widget', referenceCollection: 'widget', referenceId: 'x' }, ['type']],
        [{ type: 'Not A Type', label: 'x' }, ['type']],
        // `page` is a kind: the collection named is searched, and the page is not among the posts.
        [{ type: 'page', referenceCollection: 'post', referenceId: about.id }, ['referenceId']],
        [{ type: 'post', referenceCollection: 'articles', referenceId: hello.id }, ['referenceCollection']],
        [{ type: 'post', referenceCollection: 'page', referenceId: hello.id }, ['referenceId']],
        [{ type: 'page', referenceId: about.id }, ['referenceCollection']],
        [{ type: 'page', referenceCollection: 'page' }, ['referenceId']],
        [{ type: 'page', referenceCollection: 'page', referenceId: 'no-such-page' }, ['referenceId']],
        [{ type: 'page', referenceCollection: 'page', referenceId: trashed.id }, ['referenceId']],
        [{ type: 'page', referenceCollection: 'page', referenceId: about.id, url: '/about' }, ['url']],
        [{ type: 'taxonomy', referenceCollection: 'genre', referenceId: 'x' }, ['referenceCollection']],
        [{ type: 'taxonomy', referenceCollection: 'category', referenceId: 'no-such-term' }, ['referenceId']],
        [{ type: 'custom', label: 'No address' }, ['url']],
        [{ type: 'custom', url: '/no-label' }, ['label']],
        [{ type: 'custom', label: 'Both', url: '/x', referenceCollection: 'page', referenceId: about.id }, ['referenceCollection', 'referenceId']],
        [{ type: 'custom', label: 'Script', url: 'javascript:alert(1)' }, ['url']],
        [{ type: 'custom', label: 'Other site', url: '//evil.example/' }, ['url']],
        [{ type: 'custom', label: 'Relative', url: 'about' }, ['url']],
        [{ type: 'custom', label: 'Parent', url: '/x', parentId: foreign.id }, ['parentId']],
        [{ type: 'custom', label: 'Target', url: '/x', sortOrder: -1, target: 'new-window', cssClasses: 'a;b', colour: 'red' }, ['sortOrder', 'target', 'cssClasses', 'colour']],
      ];
      for (const [body, paths] of cases) expect(issuePaths(await request('POST', '/menus/strict/items', body)), JSON.stringify(body)).toEqual(paths);
      expect((await readMenu('strict')).items).toEqual([]);
      expect(other.name).toBe('elsewhere');
    });

    it('changes an item: attributes, target, kind, parent and order, never into a cycle', async () => {
      await createMenu('editable');
      const parent = await addItem('editable', { type: 'custom', label: 'Parent', url: '/parent' });
      const child = await addItem('editable', { type: 'custom', label: 'Child', url: '/child', parentId: parent.id });
      const item = await addItem('editable', { type: 'page', referenceCollection: 'page', referenceId: about.id });
      const changed = expectSuccess(await request('PUT', `/menus/editable/items/${item.id}`, { label: 'Who we are', target: '_blank', cssClasses: 'x', description: 'd', titleAttribute: 't' }, writer)).item;
      expect(changed).toMatchObject({ id: item.id, label: 'Who we are', target: '_blank', cssClasses: 'x', description: 'd', titleAttribute: 't', url: '/about-us' });
      // A new target without a label takes the target's title.
      const retargeted = expectSuccess(await request('PUT', `/menus/editable/items/${item.id}`, { type: 'post', referenceCollection: 'post', referenceId: hello.slug })).item;
      expect(retargeted).toMatchObject({ type: 'post', label: 'Hello world', referenceId: hello.id, url: '/blog/hello-world', target: '_blank' });
      const custom = expectSuccess(await request('PUT', `/menus/editable/items/${item.id}`, { type: 'custom', url: 'https://example.com/' })).item;
      expect(custom).toMatchObject({ type: 'custom', label: 'Hello world', url: 'https://example.com/', referenceCollection: null, referenceId: null, slug: null });
      expect(issuePaths(await request('PUT', `/menus/editable/items/${item.id}`, { type: 'taxonomy' }))).toEqual(['referenceCollection', 'referenceId']);
      expect(issuePaths(await request('PUT', `/menus/editable/items/${parent.id}`, { parentId: child.id }))).toEqual(['parentId']);
      expect(issuePaths(await request('PUT', `/menus/editable/items/${parent.id}`, { parentId: parent.id }))).toEqual(['parentId']);
      expect(issuePaths(await request('PUT', `/menus/editable/items/${parent.id}`, { parentId: 'NOPE' }))).toEqual(['parentId']);
      // Moved under another parent without a sortOrder: last among its new siblings.
      const moved = expectSuccess(await request('PUT', `/menus/editable/items/${item.id}`, { parentId: parent.id })).item;
      expect(moved).toMatchObject({ parentId: parent.id, sortOrder: 1 });
      expectSuccess(await request('PUT', `/menus/editable/items/${child.id}`, { sortOrder: 5 }));
      expect(outline((await readMenu('editable')).items)).toEqual([['Parent', ['Hello world', 'Child']]]);
      expectError(await request('PUT', '/menus/editable/items/NOPE', { label: 'x' }), 404, 'NOT_FOUND');
      expectError(await request('PUT', `/menus/nope/items/${item.id}`, { label: 'x' }), 404, 'NOT_FOUND');
    });

    it('deletes an item: its children take its place under its parent', async () => {
      await createMenu('pruned');
      await createMenu('another');
      const top = await addItem('pruned', { type: 'custom', label: 'Top', url: '/top' });
      await addItem('pruned', { type: 'custom', label: 'Before', url: '/b', parentId: top.id });
      const middle = await addItem('pruned', { type: 'custom', label: 'Middle', url: '/m', parentId: top.id });
      await addItem('pruned', { type: 'custom', label: 'After', url: '/a', parentId: top.id });
      await addItem('pruned', { type: 'custom', label: 'Kid 1', url: '/k1', parentId: middle.id });
      const kid2 = await addItem('pruned', { type: 'custom', label: 'Kid 2', url: '/k2', parentId: middle.id });
      await addItem('pruned', { type: 'custom', label: 'Grandkid', url: '/g', parentId: kid2.id });
      expectError(await request('DELETE', `/menus/another/items/${middle.id}`), 404, 'NOT_FOUND');
      expect(expectSuccess(await request('DELETE', `/menus/pruned/items/${middle.id}`, undefined, writer))).toEqual({ success: true });
      const menu = await readMenu('pruned');
      expect(outline(menu.items)).toEqual([['Top', ['Before', 'Kid 1', ['Kid 2', ['Grandkid']], 'After']]]);
      expect(menu.items[0].children.map((item: { parentId: string; sortOrder: number }) => [item.parentId, item.sortOrder])).toEqual([0, 1, 2, 3].map((order) => [top.id, order]));
      expectError(await request('DELETE', `/menus/pruned/items/${middle.id}`), 404, 'NOT_FOUND');
    });

    it(`refuses an item past the depth bound`, async () => {
      await createMenu('deep');
      let parentId: string | null = null;
      for (let level = 1; level <= 10; level += 1) parentId = (await addItem('deep', { type: 'custom', label: `Level ${level}`, url: `/l${level}`, parentId })).id;
      expect(issuePaths(await request('POST', '/menus/deep/items', { type: 'custom', label: 'Level 11', url: '/l11', parentId }))).toEqual(['parentId']);
    });
  });

  describe('reorder', () => {
    let ids: Record<string, string>;
    const snapshot = () => readMenu('ordered');

    beforeAll(async () => {
      await createMenu('ordered');
      ids = {};
      for (const label of ['A', 'B', 'C', 'D']) ids[label] = (await addItem('ordered', { type: 'custom', label, url: `/${label.toLowerCase()}` })).id;
      ids.A1 = (await addItem('ordered', { type: 'custom', label: 'A1', url: '/a1', parentId: ids.A })).id;
    });

    it('moves and nests items in one go; items not listed keep their place', async () => {
      const menu = expectSuccess(
        await request('POST', '/menus/ordered/reorder', { items: [{ id: ids.D, parentId: null, sortOrder: 0 }, { id: ids.C, parentId: ids.A1, sortOrder: 0 }, { id: ids.B, parentId: ids.A, sortOrder: 5 }] }, writer),
      ).item;
      // D and A both have sortOrder 0: the older item first.
      expect(outline(menu.items)).toEqual([['A', [['A1', ['C']], 'B']], 'D']);
      expect(menu).toEqual(await snapshot());
    });

    it('refuses a foreign or unknown id, a duplicate, an unknown parent, a cycle and too deep a tree, and changes nothing', async () => {
      const before = await snapshot();
      const foreign = await addItem('site', { type: 'custom', label: 'Foreign', url: '/f' });
      const reorder = (items: unknown[]) => request('POST', '/menus/ordered/reorder', { items });
      expect(issuePaths(await reorder([{ id: ids.D, parentId: null, sortOrder: 1 }, { id: foreign.id, parentId: null, sortOrder: 0 }]))).toEqual(['items.1.id']);
      expect(issuePaths(await reorder([{ id: 'NOPE', parentId: null, sortOrder: 0 }]))).toEqual(['items.0.id']);
      expect(issuePaths(await reorder([{ id: ids.D, parentId: null, sortOrder: 1 }, { id: ids.D, parentId: null, sortOrder: 2 }]))).toEqual(['items.1.id']);
      expect(issuePaths(await reorder([{ id: ids.D, parentId: foreign.id, sortOrder: 1 }]))).toEqual(['items.0.parentId']);
      // A under its grandchild C.
      expect(issuePaths(await reorder([{ id: ids.B, parentId: null, sortOrder: 9 }, { id: ids.A, parentId: ids.C, sortOrder: 0 }]))).toEqual(['items.1.parentId']);
      expect(issuePaths(await reorder([{ id: ids.A, parentId: ids.A, sortOrder: 0 }]))).toEqual(['items.0.parentId']);
      expect(issuePaths(await reorder([{ id: ids.D, parentId: null }]))).toEqual(['items.0.sortOrder']);
      expect(await snapshot()).toEqual(before);

      // A chain of 8 more under C (level 3) ends at level 11 for the last one.
      const chain: string[] = [];
      for (let index = 0; index < 8; index += 1) chain.push((await addItem('ordered', { type: 'custom', label: `Deep ${index}`, url: `/deep${index}` })).id);
      const beforeChain = await snapshot();
      const nested = chain.map((id, index) => ({ id, parentId: index === 0 ? ids.C : chain[index - 1], sortOrder: 0 }));
      expect(issuePaths(await reorder(nested))).toEqual(['items.7.parentId']);
      expect(await snapshot()).toEqual(beforeChain);
      expectSuccess(await reorder(nested.slice(0, 7)));
    });
  });

  describe('links', () => {
    it("follow the target's current slug and the current URL pattern", async () => {
      await createMenu('follow');
      const post = await createEntry(t, 'post', { data: { title: 'Moving' }, status: 'published' });
      await addItem('follow', { type: 'post', referenceCollection: 'post', referenceId: post.id });
      const term = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'sport', label: 'Sport' })).item;
      await addItem('follow', { type: 'taxonomy', referenceCollection: 'category', referenceId: term.id });
      const links = async () => (await readMenu('follow')).items.map((item: { slug: string; url: string | null }) => [item.slug, item.url]);
      expect(await links()).toEqual([['moving', '/blog/moving'], ['sport', '/category/sport']]);

      expectSuccess(await request('PUT', `/content/post/${post.id}`, { slug: 'moved' }));
      expectSuccess(await request('PUT', '/taxonomies/category/terms/sport', { slug: 'sports' }));
      expect(await links()).toEqual([['moved', '/blog/moved'], ['sports', '/category/sports']]);

      expect(expectSuccess(await request('PATCH', '/schema/collections/post', { urlPattern: '/{locale}/news/{id}/{slug}' })).item.urlPattern).toBe('/{locale}/news/{id}/{slug}');
      expect(expectSuccess(await request('PATCH', '/taxonomies/category', { urlPattern: '/{locale}/topics/{slug}' })).item.urlPattern).toBe('/{locale}/topics/{slug}');
      expect(await links()).toEqual([['moved', `/en/news/${post.id}/moved`], ['sports', '/en/topics/sports']]);

      expect(expectSuccess(await request('PATCH', '/schema/collections/post', { urlPattern: null })).item).not.toHaveProperty('urlPattern');
      expect(expectSuccess(await request('PATCH', '/taxonomies/category', { urlPattern: null })).item.urlPattern).toBeNull();
      expect(await links()).toEqual([['moved', null], ['sports', null]]);
      expectSuccess(await request('PATCH', '/schema/collections/post', { urlPattern: '/blog/{slug}' }));
      expectSuccess(await request('PATCH', '/taxonomies/category', { urlPattern: '/category/{slug}' }));
    });

    it('URL patterns start with "/", hold {slug} once, and otherwise only {locale}, {id} and path characters (else 400)', async () => {
      const bad = ['blog/{slug}', '/blog', '/{slug}/{slug}', '//evil.example/{slug}', '/blog/{slug}?x=1', '/{title}/{slug}', '/blog /{slug}', '/{locale}/{locale}/{slug}', '/{slug'];
      for (const urlPattern of bad) {
        expect(issuePaths(await request('POST', '/schema/collections', { slug: 'patterned', label: 'P', urlPattern })), urlPattern).toEqual(['urlPattern']);
        expect(issuePaths(await request('PATCH', '/schema/collections/page', { urlPattern })), urlPattern).toEqual(['urlPattern']);
        expect(issuePaths(await request('POST', '/taxonomies', { name: 'patterned', label: 'P', urlPattern })), urlPattern).toEqual(['urlPattern']);
        expect(issuePaths(await request('PATCH', '/taxonomies/category', { urlPattern })), urlPattern).toEqual(['urlPattern']);
      }
      const created = expectCreated(await request('POST', '/schema/collections', { slug: 'patterned', label: 'P', urlPattern: '/p/{id}-{slug}.html' })).item;
      expect(created.urlPattern).toBe('/p/{id}-{slug}.html');
      expect(expectSuccess(await request('GET', '/schema/collections/patterned')).item.urlPattern).toBe('/p/{id}-{slug}.html');
      expect(expectSuccess(await request('GET', '/schema/collections/page')).item.urlPattern).toBe('/{slug}');
      expect(expectSuccess(await request('GET', '/taxonomies/category')).item.urlPattern).toBe('/category/{slug}');
      expect(expectCreated(await request('POST', '/taxonomies', { name: 'plain', label: 'Plain' })).item.urlPattern).toBeNull();
    });
  });

  describe('visibility', () => {
    it('hides items whose entry is not published from the public and subscribers; their children move up', async () => {
      await createMenu('mixed');
      const draft = await createEntry(t, 'page', { data: { title: 'Draft page' } });
      const scheduled = await createEntry(t, 'page', { data: { title: 'Soon' } });
      expectSuccess(await request('POST', `/content/page/${scheduled.id}/schedule`, { scheduledAt: new Date(Date.now() + 86_400_000).toISOString() }));
      const trashed = await createEntry(t, 'post', { data: { title: 'Going' }, status: 'published' });
      await addItem('mixed', { type: 'custom', label: 'Home', url: '/' });
      const hidden = await addItem('mixed', { type: 'page', referenceCollection: 'page', referenceId: draft.id });
      const shownChild = await addItem('mixed', { type: 'page', referenceCollection: 'page', referenceId: about.id, parentId: hidden.id });
      await addItem('mixed', { type: 'page', referenceCollection: 'page', referenceId: scheduled.id, parentId: hidden.id });
      await addItem('mixed', { type: 'post', referenceCollection: 'post', referenceId: trashed.id });
      await addItem('mixed', { type: 'custom', label: 'Contact', url: '/contact' });
      expectSuccess(await request('DELETE', `/content/post/${trashed.id}`));

      const editor = await readMenu('mixed', writer);
      expect(outline(editor.items)).toEqual(['Home', ['Draft page', ['About us', 'Soon']], 'Going', 'Contact']);
      expect([editor.items[1].status, editor.items[1].children[1].status, editor.items[2].status]).toEqual(['draft', 'scheduled', 'trashed']);

      const subscriber = await readMenu('mixed', reader);
      expect(outline(subscriber.items)).toEqual(['Home', 'About us', 'Contact']);
      expect(subscriber.items[1]).toMatchObject({ id: shownChild.id, parentId: null });
      expect(subscriber.items[1]).not.toHaveProperty('status');
      await setPublicRead(true);
      try {
        expect(await readMenu('mixed', null)).toEqual(subscriber);
      } finally {
        await setPublicRead(false);
      }

      expectSuccess(await request('POST', `/content/page/${draft.id}/publish`));
      expectSuccess(await request('POST', `/content/post/${trashed.id}/restore`));
      expect(outline((await readMenu('mixed', reader)).items)).toEqual(['Home', ['Draft page', ['About us']], 'Going', 'Contact']);
    });

    it('shows items whose target is gone as missing to editors, and not at all to readers', async () => {
      await createMenu('broken');
      await createCollection(t, 'doomed', [{ slug: 'title', type: 'string' }], { urlPattern: '/d/{slug}' });
      const gone = await createEntry(t, 'post', { data: { title: 'Gone for good' }, status: 'published' });
      const inDoomed = await createEntry(t, 'doomed', { data: { title: 'Doomed' }, status: 'published' });
      const term = expectCreated(await request('POST', '/taxonomies/category/terms', { slug: 'fleeting', label: 'Fleeting' })).item;
      expectCreated(await request('POST', '/taxonomies', { name: 'temporary', label: 'Temporary' }));
      const tempTerm = expectCreated(await request('POST', '/taxonomies/temporary/terms', { slug: 'brief', label: 'Brief' })).item;
      await addItem('broken', { type: 'post', referenceCollection: 'post', referenceId: gone.id });
      await addItem('broken', { type: 'doomed', referenceCollection: 'doomed', referenceId: inDoomed.id });
      await addItem('broken', { type: 'taxonomy', referenceCollection: 'category', referenceId: term.id });
      await addItem('broken', { type: 'taxonomy', referenceCollection: 'temporary', referenceId: tempTerm.id });
      await addItem('broken', { type: 'post', referenceCollection: 'post', referenceId: hello.id });
      expect((await readMenu('broken')).items.filter((item: { missing?: boolean }) => item.missing)).toEqual([]);

      expectSuccess(await request('DELETE', `/content/post/${gone.id}`));
      expectSuccess(await request('DELETE', `/content/post/${gone.id}/permanent`));
      expectSuccess(await request('DELETE', '/schema/collections/doomed?force=true'));
      expectSuccess(await request('DELETE', '/taxonomies/category/terms/fleeting'));
      expectSuccess(await request('DELETE', '/taxonomies/temporary'));

      const menu = await readMenu('broken');
      expect(menu.items.map((item: { label: string; slug: string | null; url: string | null; missing?: boolean; status?: string }) => [item.label, item.slug, item.url, item.missing ?? false, item.status])).toEqual([
        ['Gone for good', null, null, true, undefined],
        ['Doomed', null, null, true, undefined],
        ['Fleeting', null, null, true, undefined],
        ['Brief', null, null, true, undefined],
        ['Hello world', 'hello-world', '/blog/hello-world', false, 'published'],
      ]);
      expect(outline((await readMenu('broken', reader)).items)).toEqual(['Hello world']);
      // An item whose target is gone can still be changed, or pointed elsewhere.
      const first = menu.items[0];
      expect(expectSuccess(await request('PUT', `/menus/broken/items/${first.id}`, { label: 'Renamed' })).item).toMatchObject({ label: 'Renamed', missing: true });
      expect(expectSuccess(await request('PUT', `/menus/broken/items/${first.id}`, { referenceId: hello.id })).item).toMatchObject({ label: 'Hello world', slug: 'hello-world' });
    });
  });

  describe('reading cost', () => {
    it('reads a 150-item menu in three levels over two collections in as many statements as a 3-item one', async () => {
      await createMenu('large');
      await createMenu('small');
      const pages = [about.id];
      const posts = [hello.id];
      for (let index = 0; index < 9; index += 1) {
        pages.push((await createEntry(t, 'page', { data: { title: `Page ${index}` }, status: 'published' })).id);
        posts.push((await createEntry(t, 'post', { data: { title: `Post ${index}` }, status: 'published' })).id);
      }
      const link = (index: number) => (index % 2 ? { type: 'page', referenceCollection: 'page', referenceId: pages[index % 10] } : { type: 'post', referenceCollection: 'post', referenceId: posts[index % 10] });
      // 10 top-level items with 4 children each, and 10 grandchildren under each top-level item: 10 + 40 + 100.
      let count = 0;
      for (let top = 0; top < 10; top += 1) {
        const parent = await addItem('large', link(count++));
        for (let child = 0; child < 4; child += 1) {
          const middle = await addItem('large', { ...link(count++), parentId: parent.id });
          for (let grandchild = 0; grandchild < (child < 2 ? 3 : 2); grandchild += 1) await addItem('large', { ...link(count++), parentId: middle.id });
        }
      }
      expect(count).toBe(150);
      for (let index = 0; index < 3; index += 1) await addItem('small', link(index));
      const statementsOf = (name: string) => t.statementsDuring(async () => readMenu(name));
      await statementsOf('small');
      const small = await statementsOf('small');
      const large = await statementsOf('large');
      expect(large.length, large.join('\n')).toBe(small.length);
      // The menu, its items, the collections named, and one statement per collection's entries.
      expect(large.filter((statement) => /"menus"|"menu_items"|"collections"|"ec_/.test(statement))).toHaveLength(5);
      expect(large.length).toBeLessThanOrEqual(8);
    });
  });
});
