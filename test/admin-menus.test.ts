import { describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { eventually, expectAccessible, hasFocus, panelSuite, selectTreeRow, signedInPage, tabTo } from './support/panel.ts';

/**
 * The panel's menus (issue 33), in Debian's chromium: an Editor creates a menu, adds a link to an
 * address, to an entry found by its title and to a term, moves items with the toolbar (the keyboard's
 * way), sees an item whose entry is gone flagged, changes and deletes items, and deletes the menu,
 * each step as the API then reads it; an Author is offered none of it.
 */
const panel = panelSuite();

type Node = { label: string; type: string; children: Node[] };
const menuTree = async (name: string) => {
  const simplify = (nodes: Node[]): unknown[] => nodes.map((node) => (node.children.length > 0 ? { [node.label]: simplify(node.children) } : node.label));
  return simplify((await panel.t.request('GET', `${api}/menus/${name}`, { token: panel.t.adminToken })).body.data.item.items as Node[]);
};
const request = (method: string, path: string, body?: unknown) => panel.t.request(method, `${api}${path}`, { token: panel.t.adminToken, body });

describe('the menus screens', () => {
  it('builds a menu of an address, an entry and a term, moves, flags, changes and deletes its items, and deletes it', { timeout: 90_000 }, async () => {
    await createCollection(panel.t, 'pages', [{ slug: 'title', type: 'string' }], { label: 'Pages', urlPattern: '/{slug}' });
    const about = await createEntry(panel.t, 'pages', { data: { title: 'About us' }, slug: 'about-us', status: 'published' });
    expect((await request('POST', '/taxonomies', { name: 'topics', label: 'Topics', collections: ['pages'] })).status).toBe(201);
    expect((await request('POST', '/taxonomies/topics/terms', { slug: 'news', label: 'News' })).status).toBe(201);
    const { user: editor } = await panel.t.userWithToken(roles.editor, ['content:read']);

    const { context, page } = await signedInPage(panel.browser, panel.server, editor.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Menus' }).click();
      await page.getByRole('heading', { name: 'Menus', exact: true, level: 1 }).waitFor();
      await page.getByLabel('Label').fill('Main navigation');
      expect(await page.getByLabel('Name').inputValue()).toBe('main-navigation');
      await page.getByRole('button', { name: 'Create the menu' }).click();
      await page.getByRole('heading', { name: 'Menu: Main navigation', level: 1 }).waitFor();

      const addItem = page.getByRole('region', { name: 'Add an item' });
      const added = async (label: string) => {
        await addItem.getByRole('button', { name: 'Add the item' }).click();
        await eventually(() => page.getByRole('status').first().textContent()).toBe(`${label} is added.`);
      };
      await addItem.getByRole('textbox', { name: 'Address' }).fill('/contact');
      await addItem.getByLabel('Label', { exact: true }).fill('Contact');
      await added('Contact');
      await addItem.getByRole('radio', { name: 'An entry' }).check();
      await addItem.getByLabel('Collection').selectOption({ label: 'Pages' });
      await addItem.getByRole('combobox', { name: 'Entry' }).fill('About');
      await page.getByRole('option', { name: 'About us' }).click();
      await added('About us');
      await addItem.getByRole('radio', { name: 'A term' }).check();
      await addItem.getByLabel('Taxonomy').selectOption({ label: 'Topics' });
      await addItem.getByLabel('Term', { exact: true }).selectOption({ label: 'News' });
      await added('News');
      expect(await menuTree('main-navigation')).toEqual(['Contact', 'About us', 'News']);

      const tree = page.getByRole('treegrid', { name: 'Items of Main navigation' });
      const row = (label: string) => tree.getByRole('row').filter({ hasText: label });
      await eventually(() => tree.getByRole('row').count()).toBe(3);
      expect(await row('About us').textContent()).toContain('Entry of pages: /about-us');
      await expectAccessible(page, 'menu editor');
      await (await selectTreeRow(page, row('News'), 'News')).getByRole('button', { name: 'Move in' }).click();
      await eventually(() => menuTree('main-navigation')).toEqual(['Contact', { 'About us': ['News'] }]);
      await (await selectTreeRow(page, row('Contact'), 'Contact')).getByRole('button', { name: 'Move down' }).click();
      await eventually(() => menuTree('main-navigation')).toEqual([{ 'About us': ['News'] }, 'Contact']);
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Contact is moved.');

      // The entry goes for good: its item stays, flagged.
      expect((await request('DELETE', `/content/pages/${about.id}`)).status).toBe(200);
      expect((await request('DELETE', `/content/pages/${about.id}/permanent`)).status).toBe(200);
      await page.reload();
      // As a person does: the tree puts in the page only the rows in the window, and the page may come back scrolled past it.
      await tree.scrollIntoViewIfNeeded();
      await eventually(() => row('About us').textContent()).toContain('Missing: its entry or term no longer exists');

      await (await selectTreeRow(page, row('Contact'), 'Contact')).getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the item Contact' });
      await dialog.getByLabel('Label', { exact: true }).fill('Write to us');
      await dialog.getByRole('button', { name: 'Save the item' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Write to us is saved.');

      await (await selectTreeRow(page, row('About us'), 'About us')).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete the item About us?' });
      expect(await confirm.textContent()).toContain('This deletes About us; the item under it moves up to its place.');
      await confirm.getByRole('button', { name: 'Delete the item' }).click();
      await eventually(() => menuTree('main-navigation')).toEqual(['News', 'Write to us']);

      await page.getByRole('button', { name: 'Delete Main navigation' }).click();
      const deleteMenu = page.getByRole('alertdialog', { name: 'Delete the menu Main navigation?' });
      expect(await deleteMenu.textContent()).toContain('This deletes the menu and its 2 items');
      await deleteMenu.getByRole('button', { name: 'Delete the menu' }).click();
      await page.getByRole('heading', { name: 'Menus', exact: true, level: 1 }).waitFor();
      expect((await request('GET', '/menus/main-navigation')).status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('builds a menu three levels deep with the keyboard alone', { timeout: 90_000 }, async () => {
    expect((await request('POST', '/menus', { name: 'sitemap', label: 'Sitemap' })).status).toBe(201);
    const { user: editor } = await panel.t.userWithToken(roles.editor, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, editor.id);
    try {
      await page.goto(panel.server.url('/menus/sitemap'));
      const addItem = page.getByRole('region', { name: 'Add an item' });
      for (const label of ['Alpha', 'Beta', 'Gamma']) {
        await tabTo(page, addItem.getByRole('textbox', { name: 'Address' }));
        await page.keyboard.type(`/${label.toLowerCase()}`);
        await tabTo(page, addItem.getByLabel('Label', { exact: true }));
        await page.keyboard.type(label);
        await tabTo(page, addItem.getByRole('button', { name: 'Add the item' }));
        await page.keyboard.press('Enter');
        await eventually(() => page.getByRole('status').first().textContent()).toBe(`${label} is added.`);
      }
      const tree = page.getByRole('treegrid', { name: 'Items of Sitemap' });
      const row = (label: string) => tree.getByRole('row').filter({ hasText: label });
      await eventually(() => tree.getByRole('row').count()).toBe(3);

      // Into the tree, to its first row and down to the one to move (the keys select as they go), then to the toolbar's step.
      const moveIn = async (label: string) => {
        // The tree is one stop of Tab: it gives the focus to its last focused row, or its first.
        for (let presses = 0; !(await tree.evaluate((element) => element.contains(element.ownerDocument.activeElement))); presses++) {
          if (presses === 60) throw new Error('Tab never reached the tree');
          await page.keyboard.press('Tab');
        }
        await page.keyboard.press('Home');
        for (let presses = 0; !(await hasFocus(row(label))); presses++) {
          if (presses === 5) throw new Error(`the arrow keys never reached ${label}`);
          await page.keyboard.press('ArrowDown');
        }
        const toolbar = page.getByRole('toolbar', { name: `Selected: ${label}` });
        await toolbar.waitFor();
        // Back to the toolbar before the tree, which Tab enters at its end: left to the step.
        await page.keyboard.press('Shift+Tab');
        for (let presses = 0; !(await hasFocus(toolbar.getByRole('button', { name: 'Move in' }))); presses++) {
          if (presses === 8) throw new Error(`the arrow keys never reached Move in: the focus is on ${await page.evaluate('document.activeElement?.outerHTML.slice(0, 200)')}`);
          await page.keyboard.press('ArrowLeft');
        }
        await page.keyboard.press('Enter');
        await eventually(() => page.getByRole('status').first().textContent()).toBe(`${label} is moved.`);
      };
      await moveIn('Gamma');
      await eventually(() => menuTree('sitemap')).toEqual(['Alpha', { Beta: ['Gamma'] }]);
      await moveIn('Beta');
      await eventually(() => menuTree('sitemap')).toEqual([{ Alpha: [{ Beta: ['Gamma'] }] }]);
      await expectAccessible(page, 'a menu three levels deep');
    } finally {
      await context.close();
    }
  });

  it('offers an Author no menus, and says so at their address', { timeout: 60_000 }, async () => {
    const { user: author } = await panel.t.userWithToken(roles.author, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, author.id);
    try {
      await page.goto(panel.server.url('/menus'));
      await eventually(() => page.getByRole('main').textContent()).toContain('Only editors and administrators shape the site’s menus.');
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Menus' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Create the menu' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
