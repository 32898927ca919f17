import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { dragTreeRow, eventually, expectAccessible, panelSuite, selectTreeRow, signedInPage } from './support/panel.ts';

/**
 * The panel's taxonomies (issue 33), in Debian's chromium: an admin defines a taxonomy; its terms
 * are added as a tree, counted (the count opens the content list filtered by the term), moved with
 * the toolbar and by dragging one onto another, changed and deleted, each step as the API then reads
 * it; an Editor arranges terms but defines no taxonomy; an Author is offered none of it.
 */
const panel = panelSuite();

type Node = { label: string; children: Node[] };
const request = (method: string, path: string, body?: unknown) => panel.t.request(method, `${api}${path}`, { token: panel.t.adminToken, body });
const termTree = async (name: string) => {
  const shape = (nodes: Node[]): unknown[] => nodes.map((node) => (node.children.length > 0 ? { [node.label]: shape(node.children) } : node.label));
  return shape((await request('GET', `/taxonomies/${name}/tree`)).body.data.items as Node[]);
};

/**
 * Waits until the selected term's toolbar offers `step` again: the steps are off while a move is
 * stored, and back once the stored tree is shown. A drag begun while the stored tree replaces the one
 * shown can be lost, as a click can (decisions/0064); a person sees the steps come back.
 */
const stepOffered = (page: Page, name: string, step: string) => eventually(() => page.getByRole('toolbar', { name: `Selected: ${name}` }).getByRole('button', { name: step }).isEnabled()).toBe(true);

describe('the taxonomies screens', () => {
  it('defines a taxonomy, builds its term tree, follows a count, moves, changes and deletes terms', { timeout: 90_000 }, async () => {
    await createCollection(panel.t, 'posts', [{ slug: 'title', type: 'string' }], { label: 'Posts' });
    const post = await createEntry(panel.t, 'posts', { data: { title: 'Sourdough at home' } });
    await createEntry(panel.t, 'posts', { data: { title: 'Untagged' } });
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Taxonomies' }).click();
      await page.getByRole('heading', { name: 'Taxonomies', exact: true, level: 1 }).waitFor();
      const form = page.getByRole('region', { name: 'New taxonomy' });
      await form.getByLabel('Label').fill('Topics');
      expect(await form.getByLabel('Name').inputValue()).toBe('topics');
      await form.getByLabel('Terms may sit under other terms').check();
      await form.getByLabel('Posts').check();
      await form.getByRole('button', { name: 'Create the taxonomy' }).click();
      await page.getByRole('heading', { name: 'Taxonomy: Topics', level: 1 }).waitFor();

      const addTerm = page.getByRole('region', { name: 'Add a term' });
      const add = async (label: string, under?: string) => {
        await addTerm.getByLabel('Label').fill(label);
        if (under) await addTerm.getByLabel('Under').selectOption({ label: under });
        await addTerm.getByRole('button', { name: 'Add the term' }).click();
        await eventually(() => page.getByRole('status').first().textContent()).toBe(`${label} is added.`);
      };
      await add('Gardening');
      await add('Cooking');
      await add('Baking', 'Cooking');
      expect(await termTree('topics')).toEqual(['Gardening', { Cooking: ['Baking'] }]);

      const baking = (await request('GET', '/taxonomies/topics/tree')).body.data.items[1].children[0];
      expect((await request('POST', `/content/posts/${post.id}/terms/topics`, { termIds: [baking.id] })).status).toBe(200);
      await page.reload();
      const tree = page.getByRole('treegrid', { name: 'Terms of Topics' });
      // As a person does: the tree puts in the page only the rows in the window, and the page may come back scrolled past it.
      await tree.scrollIntoViewIfNeeded();
      const row = (label: string) => tree.getByRole('row').filter({ has: page.locator('.tree-node-label', { hasText: new RegExp(`^${label}$`) }) });
      await eventually(() => row('Baking').textContent()).toContain('1 entry');
      expect(await row('Gardening').textContent()).toContain('No entry');
      await expectAccessible(page, 'terms of a taxonomy');
      await row('Baking').getByRole('link', { name: '1 entry with Baking' }).click();
      await eventually(() => page.getByRole('link', { name: 'Sourdough at home' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Untagged' }).count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('term')).toBe('topics:baking');
      await page.goBack();
      // Back, as after the reload.
      await tree.scrollIntoViewIfNeeded();

      await (await selectTreeRow(page, row('Baking'), 'Baking')).getByRole('button', { name: 'Move out' }).click();
      await eventually(() => termTree('topics')).toEqual(['Gardening', 'Cooking', 'Baking']);
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Baking is moved.');
      await stepOffered(page, 'Baking', 'Move up');

      // Dragged onto another term with the mouse (the whole row drags), it goes under it.
      await dragTreeRow(row('Gardening'), row('Cooking'), 'Gardening', async () => JSON.stringify(await termTree('topics')) === JSON.stringify([{ Cooking: ['Gardening'] }, 'Baking']));
      expect(await termTree('topics')).toEqual([{ Cooking: ['Gardening'] }, 'Baking']);

      await (await selectTreeRow(page, row('Cooking'), 'Cooking')).getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the term Cooking' });
      await dialog.getByLabel('Label').fill('Kitchen');
      await dialog.getByRole('button', { name: 'Save the term' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Kitchen is saved.');

      await (await selectTreeRow(page, row('Kitchen'), 'Kitchen')).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete the term Kitchen?' });
      expect(await confirm.textContent()).toContain('This deletes Kitchen; the term under it moves up to its place.');
      await confirm.getByRole('button', { name: 'Delete the term' }).click();
      await eventually(() => termTree('topics')).toEqual(['Gardening', 'Baking']);
    } finally {
      await context.close();
    }
  });

  it('opens a taxonomy of more than 300 terms at its top level; a term opens by keyboard; a term moved or dragged under another opens it', { timeout: 90_000 }, async () => {
    // 333 terms: Region 0 with two towns, Regions 1 to 33 with nine each (as few as make it large, the first ones short enough to stay in view).
    expect((await request('POST', '/taxonomies', { name: 'places', label: 'Places', hierarchical: true, collections: [] })).status).toBe(201);
    for (let region = 0; region <= 33; region++) {
      const created = await request('POST', '/taxonomies/places/terms', { slug: `region-${region}`, label: `Region ${region}` });
      expect(created.status).toBe(201);
      for (let town = 0; town < (region === 0 ? 2 : 9); town++) {
        expect((await request('POST', '/taxonomies/places/terms', { slug: `town-${region}-${town}`, label: `Town ${region}.${town}`, parentId: created.body.data.item.id })).status).toBe(201);
      }
    }
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/taxonomies/places'));
      const tree = page.getByRole('treegrid', { name: 'Terms of Places' });
      await tree.scrollIntoViewIfNeeded();
      const row = (label: string) => tree.getByRole('row').filter({ has: page.locator('.tree-node-label', { hasText: new RegExp(`^${label.replace('.', '\\.')}$`) }) });
      await eventually(() => row('Region 0').getAttribute('aria-expanded')).toBe('false');
      expect(await row('Town 0.0').count()).toBe(0);

      await selectTreeRow(page, row('Region 0'), 'Region 0');
      await page.keyboard.press('ArrowRight');
      await eventually(() => row('Town 0.1').getAttribute('aria-level')).toBe('2');
      expect(await row('Region 0').getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowLeft');
      await eventually(() => row('Town 0.0').count()).toBe(0);

      // Under Region 0, collapsed: Region 0 opens to show it, last of its terms.
      await (await selectTreeRow(page, row('Region 1'), 'Region 1')).getByRole('button', { name: 'Move in' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Region 1 is moved.');
      expect((await termTree('places')).slice(0, 2)).toEqual([{ 'Region 0': ['Town 0.0', 'Town 0.1', { 'Region 1': Array.from({ length: 9 }, (_, town) => `Town 1.${town}`) }] }, { 'Region 2': Array.from({ length: 9 }, (_, town) => `Town 2.${town}`) }]);
      expect(await row('Town 0.1').isVisible()).toBe(true);
      expect(await row('Region 1').getAttribute('aria-level')).toBe('2');
      expect(await row('Region 1').getAttribute('aria-expanded')).toBe('false');

      // Opened, Region 1 stays open as it moves back out.
      await selectTreeRow(page, row('Region 1'), 'Region 1');
      await page.keyboard.press('ArrowRight');
      await eventually(() => row('Town 1.0').count()).toBe(1);
      await page.getByRole('toolbar', { name: 'Selected: Region 1' }).getByRole('button', { name: 'Move out' }).click();
      // Stored (the status already says "Region 1 is moved." from the move in).
      await eventually(async () => (await termTree('places'))[1]).toEqual({ 'Region 1': Array.from({ length: 9 }, (_, town) => `Town 1.${town}`) });
      expect(await row('Region 1').getAttribute('aria-level')).toBe('1');
      expect(await row('Town 1.0').getAttribute('aria-level')).toBe('2');
      expect(await row('Town 0.0').count()).toBe(1);

      // Dragged onto Region 3, collapsed, Region 2 goes under it, last, and Region 3 opens.
      await selectTreeRow(page, row('Region 1'), 'Region 1');
      await stepOffered(page, 'Region 1', 'Move in');
      await page.keyboard.press('ArrowLeft');
      await eventually(() => row('Town 1.0').count()).toBe(0);
      await dragTreeRow(row('Region 2'), row('Region 3'), 'Region 2', async () => !(await termTree('places')).some((node) => typeof node === 'object' && node !== null && 'Region 2' in node));
      expect((await termTree('places'))[2]).toEqual({ 'Region 3': [...Array.from({ length: 9 }, (_, town) => `Town 3.${town}`), { 'Region 2': Array.from({ length: 9 }, (_, town) => `Town 2.${town}`) }] });
      expect(await row('Region 3').getAttribute('aria-expanded')).toBe('true');
      expect(await row('Town 3.0').getAttribute('aria-level')).toBe('2');
    } finally {
      await context.close();
    }
  });

  it('lets an Editor arrange terms but not define taxonomies, and offers an Author none of it', { timeout: 60_000 }, async () => {
    const { user: editor } = await panel.t.userWithToken(roles.editor, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, editor.id);
    try {
      await page.goto(panel.server.url('/taxonomies'));
      await page.getByRole('heading', { name: 'Taxonomies', exact: true, level: 1 }).waitFor();
      await eventually(() => page.getByRole('link', { name: 'Topics' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Create the taxonomy' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Topics' }).click();
      await page.getByRole('region', { name: 'Add a term' }).waitFor();
      expect(await page.getByRole('button', { name: 'Delete Topics' }).count()).toBe(0);
    } finally {
      await context.close();
    }
    const { user: author } = await panel.t.userWithToken(roles.author, ['content:read']);
    const authorPage = await signedInPage(panel.browser, panel.server, author.id);
    try {
      await authorPage.page.goto(panel.server.url('/taxonomies'));
      await eventually(() => authorPage.page.getByRole('main').textContent()).toContain('Only editors and administrators arrange the site’s taxonomies.');
      expect(await authorPage.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Taxonomies' }).count()).toBe(0);
    } finally {
      await authorPage.context.close();
    }
  });
});
