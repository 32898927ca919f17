import { describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { eventually, expectAccessible, panelSuite, signedInPage } from './support/panel.ts';

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
      const row = (label: string) => tree.getByRole('row').filter({ has: page.locator('.tree-node-label', { hasText: new RegExp(`^${label}$`) }) });
      await eventually(() => row('Baking').textContent()).toContain('1 entry');
      expect(await row('Gardening').textContent()).toContain('No entry');
      await expectAccessible(page, 'terms of a taxonomy');
      await row('Baking').getByRole('link', { name: '1 entry with Baking' }).click();
      await eventually(() => page.getByRole('link', { name: 'Sourdough at home' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Untagged' }).count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('term')).toBe('topics:baking');
      await page.goBack();

      await row('Baking').locator('.tree-node-label').click();
      await page.getByRole('toolbar', { name: 'Selected: Baking' }).getByRole('button', { name: 'Move out' }).click();
      await eventually(() => termTree('topics')).toEqual(['Gardening', 'Cooking', 'Baking']);
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Baking is moved.');

      // Dragged onto another term with the mouse (the whole row drags), it goes under it.
      await row('Gardening').locator('.tree-node-label').dragTo(row('Cooking').locator('.tree-node-label'));
      await eventually(() => termTree('topics')).toEqual([{ Cooking: ['Gardening'] }, 'Baking']);

      await row('Cooking').locator('.tree-node-label').click();
      await page.getByRole('toolbar', { name: 'Selected: Cooking' }).getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the term Cooking' });
      await dialog.getByLabel('Label').fill('Kitchen');
      await dialog.getByRole('button', { name: 'Save the term' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Kitchen is saved.');

      await row('Kitchen').locator('.tree-node-label').click();
      await page.getByRole('toolbar', { name: 'Selected: Kitchen' }).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete the term Kitchen?' });
      expect(await confirm.textContent()).toContain('This deletes Kitchen; the term under it moves up to its place.');
      await confirm.getByRole('button', { name: 'Delete the term' }).click();
      await eventually(() => termTree('topics')).toEqual(['Gardening', 'Baking']);
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
