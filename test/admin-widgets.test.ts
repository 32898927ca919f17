import { describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api } from './support/content.ts';
import { eventually, expectAccessible, panelSuite, selectTreeRow, signedInPage } from './support/panel.ts';

/**
 * The panel's widget areas (issue 33), in Debian's chromium: an Editor creates an area, adds a text
 * widget written in the Portable Text editor, a menu and a section, moves one, sees one whose section
 * is gone flagged, changes and removes widgets and deletes the area, each step as the API then reads
 * it; an Author is offered none of it.
 */
const panel = panelSuite();

const request = (method: string, path: string, body?: unknown) => panel.t.request(method, `${api}${path}`, { token: panel.t.adminToken, body });
const widgetTitles = async () => ((await request('GET', '/widget-areas/sidebar')).body.data.item.widgets as { title: string | null; type: string }[]).map((widget) => widget.title ?? widget.type);

describe('the widget area screens', () => {
  it('builds an area of a text, a menu and a section, moves, flags, changes and removes widgets, and deletes it', { timeout: 90_000 }, async () => {
    expect((await request('POST', '/menus', { name: 'footer', label: 'Footer links' })).status).toBe(201);
    expect((await request('POST', '/sections', { slug: 'opening-hours', title: 'Opening hours', content: 'Open daily.' })).status).toBe(201);
    const { user: editor } = await panel.t.userWithToken(roles.editor, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, editor.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Widget areas' }).click();
      await page.getByRole('heading', { name: 'Widget areas', exact: true, level: 1 }).waitFor();
      await page.getByLabel('Label').fill('Sidebar');
      expect(await page.getByLabel('Name').inputValue()).toBe('sidebar');
      await page.getByRole('button', { name: 'Create the area' }).click();
      await page.getByRole('heading', { name: 'Widget area: Sidebar', level: 1 }).waitFor();

      const addWidget = page.getByRole('region', { name: 'Add a widget' });
      const added = async (title: string) => {
        await addWidget.getByRole('button', { name: 'Add the widget' }).click();
        await eventually(() => page.getByRole('status').first().textContent()).toBe(`${title} is added.`);
      };
      await addWidget.getByLabel('Title').fill('Welcome');
      await addWidget.getByRole('textbox', { name: 'Text' }).click();
      await page.keyboard.type('Hello there.');
      await added('Welcome');
      await addWidget.getByRole('radio', { name: 'Menu' }).check();
      await addWidget.getByRole('combobox', { name: 'Menu' }).selectOption({ label: 'Footer links' });
      await added('Menu');
      await addWidget.getByRole('radio', { name: 'Section' }).check();
      await addWidget.getByLabel('Title').fill('Hours');
      await addWidget.getByRole('combobox', { name: 'Section' }).selectOption({ label: 'Opening hours' });
      await added('Hours');
      expect(await widgetTitles()).toEqual(['Welcome', 'menu', 'Hours']);
      const welcome = (await request('GET', '/widget-areas/sidebar')).body.data.item.widgets[0];
      expect(welcome.content[0].children[0].text).toBe('Hello there.');

      const list = page.getByRole('treegrid', { name: 'Widgets of Sidebar' });
      const row = (label: string) => list.getByRole('row').filter({ has: page.locator('.tree-node-label', { hasText: new RegExp(`^${label}$`) }) });
      await eventually(() => row('Menu').textContent()).toContain('Menu: Footer links');
      await expectAccessible(page, 'widget area');
      await (await selectTreeRow(page, row('Hours'), 'Hours')).getByRole('button', { name: 'Move up' }).click();
      await eventually(() => widgetTitles()).toEqual(['Welcome', 'Hours', 'menu']);

      expect((await request('DELETE', '/sections/opening-hours')).status).toBe(200);
      await page.reload();
      // As a person does: the tree puts in the page only the rows in the window, and the page may come back scrolled past it.
      await list.scrollIntoViewIfNeeded();
      await eventually(() => row('Hours').textContent()).toContain('Missing: the section opening-hours no longer exists');

      await (await selectTreeRow(page, row('Welcome'), 'Welcome')).getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the widget Welcome' });
      await dialog.getByLabel('Title').fill('Hello');
      await dialog.getByRole('button', { name: 'Save the widget' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Hello is saved.');

      await (await selectTreeRow(page, row('Menu'), 'Menu')).getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('alertdialog', { name: 'Remove the widget Menu?' }).getByRole('button', { name: 'Remove the widget' }).click();
      await eventually(() => widgetTitles()).toEqual(['Hello', 'Hours']);

      await page.getByRole('button', { name: 'Delete Sidebar' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete the widget area Sidebar?' });
      expect(await confirm.textContent()).toContain('This deletes the area and its 2 widgets');
      await confirm.getByRole('button', { name: 'Delete the area' }).click();
      await page.getByRole('heading', { name: 'Widget areas', exact: true, level: 1 }).waitFor();
      expect((await request('GET', '/widget-areas/sidebar')).status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('offers an Author no widget areas, and says so at their address', { timeout: 60_000 }, async () => {
    const { user: author } = await panel.t.userWithToken(roles.author, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, author.id);
    try {
      await page.goto(panel.server.url('/widget-areas'));
      await eventually(() => page.getByRole('main').textContent()).toContain('Only editors and administrators manage the site’s widget areas.');
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Widget areas' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
