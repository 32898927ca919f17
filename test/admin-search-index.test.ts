import { describe, expect, it } from 'vitest';
import { api, createCollection, createEntry } from './support/content.ts';
import { eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's search index screen (issue 33), in Debian's chromium: an admin sees what the index
 * holds per collection with search, rebuilds one collection and then all after rows were lost
 * behind Folio's back, and reads the counts again; an Editor is offered none of it.
 */
const panel = panelSuite();

const stats = async () => (await panel.t.request('GET', `${api}/search/stats`, { token: panel.t.adminToken })).body.data.items as { collection: string; entries: number }[];

describe('the search index screen', () => {
  it('shows the entries indexed per collection and rebuilds one collection, then all', { timeout: 60_000 }, async () => {
    await createCollection(panel.t, 'notes', [{ slug: 'title', type: 'string', searchable: true }], { label: 'Notes', supports: ['search'] });
    await createCollection(panel.t, 'recipes', [{ slug: 'title', type: 'string', searchable: true }], { label: 'Recipes', supports: ['search'] });
    for (const title of ['Tomatoes', 'Basil', 'Thyme']) await createEntry(panel.t, 'notes', { data: { title } });
    await createEntry(panel.t, 'recipes', { data: { title: 'Soup' } });
    // Lost behind Folio's back, as a restore of an older copy of the index would lose them.
    await panel.t.db.kysely.deleteFrom('search_documents').execute();

    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search index' }).click();
      await page.getByRole('heading', { name: 'Search index', level: 1 }).waitFor();
      const table = page.getByRole('table', { name: 'Search index per collection' });
      const indexed = (collection: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: collection, exact: true }) }).getByRole('cell').first().textContent();
      await eventually(() => indexed('Notes')).toBe('0');
      expect(await indexed('Recipes')).toBe('0');
      await expectAccessible(page, 'search index');

      await page.getByRole('button', { name: 'Rebuild Notes' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('The index is rebuilt: 3 entries in 1 collection.');
      await eventually(() => indexed('Notes')).toBe('3');
      expect(await indexed('Recipes')).toBe('0');

      await page.getByRole('button', { name: 'Rebuild the whole index' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('The index is rebuilt: 4 entries in 2 collections.');
      await eventually(() => indexed('Recipes')).toBe('1');
      expect(await stats()).toEqual([
        { collection: 'notes', entries: 3, documents: 3 },
        { collection: 'recipes', entries: 1, documents: 1 },
      ]);
      const found = await panel.t.request('GET', `${api}/search?q=basil&status=draft`, { token: panel.t.adminToken });
      expect(found.body.results.map((result: { title: string }) => result.title)).toEqual(['Basil']);
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no search index, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/search-index', link: 'Search index', says: 'Only administrators see the search index', action: 'Rebuild the whole index' });
  });
});
