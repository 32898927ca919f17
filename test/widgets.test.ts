import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/** Widget areas and their widgets: content, menus and sections filled in on read, order, and who may do what. */
describe('widget areas', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const idsOf = (area: { widgets: { id: string }[] }) => area.widgets.map((widget) => widget.id);
  const readArea = async (name: string) => expectSuccess(await request('GET', `/widget-areas/${name}`, undefined, reader)).item;

  /** Menus are written here straight into their table: their API is built separately. */
  async function insertMenu(name: string, label: string): Promise<void> {
    expectCreated(await request('POST', '/menus', { name, label }));
  }

  async function addWidget(area: string, body: Record<string, unknown>, token = writer) {
    return expectCreated(await request('POST', `/widget-areas/${area}/widgets`, body, token)).item;
  }

  beforeAll(async () => {
    t = await createTestApp();
    writer = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
    reader = (await t.userWithToken(10, ['content:read'])).token;
    await insertMenu('main', 'Main menu');
    expectCreated(await request('POST', '/sections', { slug: 'newsletter', title: 'Newsletter', content: 'Sign *up*' }));
    expectCreated(await request('POST', '/sections', { slug: 'about', title: 'About us', content: 'We make things.' }));
  });
  afterAll(() => t.close());

  it('creates, lists, reads, changes and deletes an area, its widgets with it', async () => {
    const created = expectCreated(await request('POST', '/widget-areas', { name: 'sidebar', label: 'Sidebar', description: 'Right of posts' }, writer)).item;
    expect(created).toMatchObject({ name: 'sidebar', label: 'Sidebar', description: 'Right of posts', widgets: [] });
    expectCreated(await request('POST', '/widget-areas', { name: 'footer_1', label: 'Footer' }, writer));
    const widgetIds = [(await addWidget('sidebar', { type: 'content', content: 'Hello' })).id, (await addWidget('sidebar', { type: 'content', content: 'Again' })).id];

    const listed = expectSuccess(await request('GET', '/widget-areas', undefined, reader)).items;
    expect(listed.map((area: { name: string; widgetCount: number }) => [area.name, area.widgetCount])).toEqual([['footer_1', 0], ['sidebar', 2]]);
    expect(listed[0]).toEqual({ name: 'footer_1', label: 'Footer', description: null, widgetCount: 0, createdAt: expect.any(String), updatedAt: expect.any(String) });

    t.clock.advance(1000);
    const changed = expectSuccess(await request('PUT', '/widget-areas/sidebar', { label: 'Side bar', description: null }, writer)).item;
    expect(changed).toMatchObject({ name: 'sidebar', label: 'Side bar', description: null });
    expect(changed.updatedAt > created.updatedAt).toBe(true);
    expect(changed.widgets).toHaveLength(2);
    expect(await readArea('sidebar')).toEqual(changed);

    expect(expectSuccess(await request('DELETE', '/widget-areas/sidebar', undefined, writer))).toEqual({ success: true });
    expectError(await request('GET', '/widget-areas/sidebar'), 404, 'NOT_FOUND');
    expect(await t.db.kysely.selectFrom('widgets').select('id').where('id', 'in', widgetIds).execute()).toEqual([]);
    expectSuccess(await request('DELETE', '/widget-areas/footer_1', undefined, writer));
  });

  it('adds content, menu and section widgets in order, filled in on read', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'home', label: 'Home' }));
    const text = await addWidget('home', { type: 'content', title: 'Hi', content: '# Welcome\n\nTo the *site*.' });
    expect(text).toMatchObject({ type: 'content', title: 'Hi', sortOrder: 0 });
    expect(text.content.map((block: { style: string }) => block.style)).toEqual(['h1', 'normal']);
    const menu = await addWidget('home', { type: 'menu', menu: 'main' });
    expect(menu).toEqual({ id: menu.id, type: 'menu', title: null, sortOrder: 1, menu: { name: 'main', label: 'Main menu' } });
    const section = await addWidget('home', { type: 'section', title: 'Stay in touch', section: 'newsletter' });
    expect(section).toMatchObject({ type: 'section', title: 'Stay in touch', sortOrder: 2, section: { slug: 'newsletter', title: 'Newsletter' } });
    expect(section.section.content[0].children.map((span: { text: string }) => span.text)).toEqual(['Sign ', 'up']);
    const blocks = [{ _type: 'block', _key: 'b1', style: 'normal', markDefs: [], children: [{ _type: 'span', _key: 's1', text: 'Plain', marks: [] }] }];
    const portable = await addWidget('home', { type: 'content', content: blocks });
    expect(portable.content).toEqual(blocks);

    const area = await readArea('home');
    expect(area.widgets).toEqual([text, menu, section, portable]);
    // The section as it is now, not as it was when the widget was added.
    expectSuccess(await request('PUT', '/sections/newsletter', { title: 'Our newsletter' }));
    expect((await readArea('home')).widgets[2].section.title).toBe('Our newsletter');
  });

  it('changes a widget’s title and what it shows, within its type', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'changes', label: 'Changes' }));
    const text = await addWidget('changes', { type: 'content', title: 'Old', content: 'Old text' });
    const changed = expectSuccess(await request('PUT', `/widget-areas/changes/widgets/${text.id}`, { title: null, content: 'New *text*' }, writer)).item;
    expect(changed).toMatchObject({ id: text.id, type: 'content', title: null, sortOrder: 0 });
    expect(changed.content[0].children.map((span: { text: string }) => span.text)).toEqual(['New ', 'text']);
    const shown = await addWidget('changes', { type: 'section', section: 'newsletter' });
    const moved = expectSuccess(await request('PUT', `/widget-areas/changes/widgets/${shown.id}`, { section: 'about', title: 'About' }, writer)).item;
    expect(moved).toMatchObject({ type: 'section', title: 'About', section: { slug: 'about', title: 'About us' } });
    await insertMenu('footer-links', 'Footer links');
    const menu = await addWidget('changes', { type: 'menu', menu: 'main' });
    expect(expectSuccess(await request('PUT', `/widget-areas/changes/widgets/${menu.id}`, { menu: 'footer-links' })).item.menu).toEqual({ name: 'footer-links', label: 'Footer links' });

    expect(issuePaths(await request('PUT', `/widget-areas/changes/widgets/${menu.id}`, { content: 'Text', section: 'about' }))).toEqual(['content', 'section']);
    expect(issuePaths(await request('PUT', `/widget-areas/changes/widgets/${text.id}`, { menu: 'main' }))).toEqual(['menu']);
    expect(issuePaths(await request('PUT', `/widget-areas/changes/widgets/${menu.id}`, { menu: 'nope' }))).toEqual(['menu']);
    expect(issuePaths(await request('PUT', `/widget-areas/changes/widgets/${shown.id}`, { section: 'nope' }))).toEqual(['section']);
    expect(issuePaths(await request('PUT', `/widget-areas/changes/widgets/${text.id}`, { type: 'menu', content: 42 }))).toEqual(['content', 'type']);
    expect((await readArea('changes')).widgets.map((widget: { type: string }) => widget.type)).toEqual(['content', 'section', 'menu']);
  });

  it('reads an area in the same number of statements however many widgets, sections and menus it shows', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'small', label: 'Small' }));
    expectCreated(await request('POST', '/widget-areas', { name: 'large', label: 'Large' }));
    await addWidget('small', { type: 'section', section: 'about' });
    for (let index = 0; index < 6; index++) {
      await addWidget('large', { type: 'section', section: index % 2 ? 'about' : 'newsletter' });
      await addWidget('large', { type: 'menu', menu: 'main' });
      await addWidget('large', { type: 'content', content: `Text ${index}` });
    }
    await addWidget('large', { type: 'section', section: 'about' });
    await readArea('small'); // the token's once-a-minute "last used" write out of the way
    const small = await t.statementsDuring(() => readArea('small'));
    const large = await t.statementsDuring(async () => expect((await readArea('large')).widgets).toHaveLength(19));
    expect(large.length, large.join('\n')).toBe(small.length);
    expect(large.filter((statement) => /"widgets"/.test(statement))).toHaveLength(1);
  });

  it('keeps a widget whose section or menu was deleted readable, as missing', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'orphans', label: 'Orphans' }));
    expectCreated(await request('POST', '/sections', { slug: 'short-lived', title: 'Short-lived', content: 'Soon gone' }));
    await insertMenu('temporary', 'Temporary');
    const section = await addWidget('orphans', { type: 'section', title: 'Gone', section: 'short-lived' });
    const menu = await addWidget('orphans', { type: 'menu', menu: 'temporary' });
    expectSuccess(await request('DELETE', '/sections/short-lived'));
    expectSuccess(await request('DELETE', '/menus/temporary'));

    expect((await readArea('orphans')).widgets).toEqual([
      { id: section.id, type: 'section', title: 'Gone', sortOrder: 0, section: { slug: 'short-lived', missing: true } },
      { id: menu.id, type: 'menu', title: null, sortOrder: 1, menu: { name: 'temporary', missing: true } },
    ]);
    // A section of that slug made again is shown again.
    expectCreated(await request('POST', '/sections', { slug: 'short-lived', title: 'Back', content: [] }));
    expect((await readArea('orphans')).widgets[0].section).toEqual({ slug: 'short-lived', title: 'Back', content: [] });
  });

  it('follows a section to its new slug', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'renames', label: 'Renames' }));
    expectCreated(await request('POST', '/sections', { slug: 'before', title: 'Renamed', content: [] }));
    const widget = await addWidget('renames', { type: 'section', section: 'before' });
    expectSuccess(await request('PUT', '/sections/before', { slug: 'after' }));
    expect((await readArea('renames')).widgets).toEqual([{ ...widget, section: { slug: 'after', title: 'Renamed', content: [] } }]);
  });

  it('follows a menu to its new name', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'menu-renames', label: 'Menu renames' }));
    await insertMenu('old-name', 'Footer');
    const widget = await addWidget('menu-renames', { type: 'menu', menu: 'old-name' });
    expectSuccess(await request('PUT', '/menus/old-name', { name: 'new-name' }));
    expect((await readArea('menu-renames')).widgets).toEqual([{ ...widget, menu: { name: 'new-name', label: 'Footer' } }]);
  });

  it('refuses a missing menu or section, an unknown type and fields of another type (400)', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'refusals', label: 'Refusals' }));
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { type: 'menu', menu: 'nope' }))).toEqual(['menu']);
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { type: 'section', section: 'nope' }))).toEqual(['section']);
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { type: 'calendar', title: 'When' }))).toEqual(['type']);
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { title: 'No type' }))).toEqual(['type']);
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { type: 'menu', menu: 'main', content: 'Text' }))).toEqual(['content']);
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { type: 'content', content: 'Text', section: 'about' }))).toEqual(['section']);
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { type: 'section' }))).toEqual(['section']);
    expect(issuePaths(await request('POST', '/widget-areas/refusals/widgets', { type: 'content', title: '', content: [{ _type: 'block', children: 'x' }] }))).toEqual(['title', 'content.0.children']);
    expect((await readArea('refusals')).widgets).toEqual([]);
  });

  it('refuses a malformed or taken area name (400, 409) and unknown areas and widgets (404)', async () => {
    expectCreated(await request('POST', '/widget-areas', { name: 'taken', label: 'Taken' }));
    expect(expectError(await request('POST', '/widget-areas', { name: 'taken', label: 'Again' }), 409, 'CONFLICT').details).toEqual({ name: 'taken' });
    expect(issuePaths(await request('POST', '/widget-areas', { name: 'Bad Name', label: '' }))).toEqual(['name', 'label']);
    expect(issuePaths(await request('POST', '/widget-areas', { name: '1st', label: 'First' }))).toEqual(['name']);
    expect(issuePaths(await request('POST', '/widget-areas', { name: `a${'b'.repeat(63)}`, label: 'Long' }))).toEqual(['name']);
    expect(issuePaths(await request('PUT', '/widget-areas/taken', { name: 'renamed' }))).toEqual(['name']);

    expectCreated(await request('POST', '/widget-areas', { name: 'other', label: 'Other' }));
    const foreign = await addWidget('other', { type: 'content', content: 'Elsewhere' });
    const unknownWidgets: [string, string, unknown][] = [
      ['PUT', '/widget-areas/taken/widgets/NOPE', { title: 'x' }],
      ['DELETE', '/widget-areas/taken/widgets/NOPE', undefined],
      ['PUT', `/widget-areas/taken/widgets/${foreign.id}`, { title: 'x' }],
      ['DELETE', `/widget-areas/taken/widgets/${foreign.id}`, undefined],
    ];
    for (const [method, path, body] of unknownWidgets) expectError(await request(method, path, body), 404, 'NOT_FOUND');
    expect((await readArea('other')).widgets).toEqual([foreign]);
    const unknownAreas: [string, string, unknown][] = [
      ['GET', '/widget-areas/nope', undefined],
      ['PUT', '/widget-areas/nope', { label: 'x' }],
      ['DELETE', '/widget-areas/nope', undefined],
      ['POST', '/widget-areas/nope/widgets', { type: 'content', content: 'x' }],
      ['PUT', `/widget-areas/nope/widgets/${foreign.id}`, { title: 'x' }],
      ['DELETE', `/widget-areas/nope/widgets/${foreign.id}`, undefined],
      ['POST', '/widget-areas/nope/reorder', { widgetIds: [] }],
    ];
    for (const [method, path, body] of unknownAreas) expectError(await request(method, path, body), 404, 'NOT_FOUND');
  });

  describe('order', () => {
    let ids: string[];
    beforeAll(async () => {
      expectCreated(await request('POST', '/widget-areas', { name: 'ordered', label: 'Ordered' }));
      ids = [];
      for (const text of ['one', 'two', 'three']) ids.push((await addWidget('ordered', { type: 'content', title: text, content: text })).id);
    });

    it('reorders the widgets and returns the area', async () => {
      const [one, two, three] = ids as [string, string, string];
      const area = expectSuccess(await request('POST', '/widget-areas/ordered/reorder', { widgetIds: [three, one, two] }, writer)).item;
      expect(area.name).toBe('ordered');
      expect(area.widgets.map((widget: { id: string; sortOrder: number }) => [widget.id, widget.sortOrder])).toEqual([[three, 0], [one, 1], [two, 2]]);
      expect(idsOf(await readArea('ordered'))).toEqual([three, one, two]);
      ids = [three, one, two];
    });

    it('refuses a list that is not exactly the area’s widgets, each once, and moves nothing', async () => {
      const [first, second, third] = ids as [string, string, string];
      const foreign = (await readArea('other')).widgets[0].id;
      const wrong: [string, unknown, string[]][] = [
        ['missing', { widgetIds: [first, second] }, ['widgetIds']],
        ['foreign', { widgetIds: [first, second, foreign] }, ['widgetIds.2', 'widgetIds']],
        ['duplicate', { widgetIds: [first, second, third, second] }, ['widgetIds.3']],
        ['extra', { widgetIds: [first, second, third, 'NOPE'] }, ['widgetIds.3']],
        ['empty', { widgetIds: [] }, ['widgetIds', 'widgetIds', 'widgetIds']],
        ['not a list', { widgetIds: first }, ['widgetIds']],
      ];
      for (const [, body, paths] of wrong) expect(issuePaths(await request('POST', '/widget-areas/ordered/reorder', body))).toEqual(paths);
      const missing = expectError(await request('POST', '/widget-areas/ordered/reorder', { widgetIds: [first, second] }), 400, 'VALIDATION_ERROR');
      expect(missing.details.issues[0].message).toContain(third);
      expect((await readArea('ordered')).widgets.map((widget: { id: string; sortOrder: number }) => [widget.id, widget.sortOrder])).toEqual([[first, 0], [second, 1], [third, 2]]);
    });

    it('closes the gap a deleted widget leaves, and places a new one last', async () => {
      const [first, second, third] = ids as [string, string, string];
      expect(expectSuccess(await request('DELETE', `/widget-areas/ordered/widgets/${second}`, undefined, writer))).toEqual({ success: true });
      expect((await readArea('ordered')).widgets.map((widget: { id: string; sortOrder: number }) => [widget.id, widget.sortOrder])).toEqual([[first, 0], [third, 1]]);
      const added = await addWidget('ordered', { type: 'content', content: 'four' });
      expect(added.sortOrder).toBe(2);
      expect(idsOf(await readArea('ordered'))).toEqual([first, third, added.id]);
    });
  });

  describe('access', () => {
    const setPublicRead = async (value: boolean) => expectSuccess(await request('POST', '/settings', { publicRead: value }));
    let widgetId: string;
    beforeAll(async () => {
      expectCreated(await request('POST', '/widget-areas', { name: 'guarded', label: 'Guarded' }));
      widgetId = (await addWidget('guarded', { type: 'section', section: 'about' })).id;
    });

    it('needs a token (401), content:read to read and content:write to write (403)', async () => {
      const writes: [string, string, unknown][] = [
        ['POST', '/widget-areas', { name: 'x', label: 'X' }],
        ['PUT', '/widget-areas/guarded', { label: 'X' }],
        ['DELETE', '/widget-areas/guarded', undefined],
        ['POST', '/widget-areas/guarded/widgets', { type: 'content', content: 'x' }],
        ['PUT', `/widget-areas/guarded/widgets/${widgetId}`, { title: 'x' }],
        ['DELETE', `/widget-areas/guarded/widgets/${widgetId}`, undefined],
        ['POST', '/widget-areas/guarded/reorder', { widgetIds: [widgetId] }],
      ];
      for (const [method, path, body] of writes) {
        expectError(await request(method, path, body, null), 401, 'UNAUTHORIZED');
        expect(expectError(await request(method, path, body, reader), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:write' });
      }
      expectError(await request('GET', '/widget-areas', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('GET', '/widget-areas/guarded', undefined, null), 401, 'UNAUTHORIZED');
      const noScope = (await t.userWithToken(40, ['media:read'])).token;
      expect(expectError(await request('GET', '/widget-areas/guarded', undefined, noScope), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'content:read' });
      expect((await readArea('guarded')).widgets.map((widget: { id: string }) => widget.id)).toEqual([widgetId]);
    });

    it('lets the public read while publicRead is on, and closes again at once when it is turned off', async () => {
      await setPublicRead(true);
      try {
        expect(expectSuccess(await request('GET', '/widget-areas', undefined, null)).items.map((area: { name: string }) => area.name)).toContain('guarded');
        expect(expectSuccess(await request('GET', '/widget-areas/guarded', undefined, null)).item.widgets[0].section).toMatchObject({ slug: 'about', title: 'About us' });
        expectError(await request('POST', '/widget-areas/guarded/widgets', { type: 'content', content: 'x' }, null), 401, 'UNAUTHORIZED');
      } finally {
        await setPublicRead(false);
      }
      expectError(await request('GET', '/widget-areas', undefined, null), 401, 'UNAUTHORIZED');
      expectError(await request('GET', '/widget-areas/guarded', undefined, null), 401, 'UNAUTHORIZED');
    });
  });
});
