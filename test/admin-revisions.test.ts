import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { eventually, expectAccessible, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The revisions screen (issue 31, decisions/0046) in chromium: an entry's history with who saved
 * each revision and when, a field-by-field comparison of any two, and restore after a confirmation.
 */
const panel = panelSuite();
let context: BrowserContext;
let page: Page;
let cspViolations: string[];

interface Revision {
  id: string;
  data: Record<string, unknown>;
  authorName?: string;
}

const revisionsOf = async (id: string): Promise<Revision[]> => expectSuccess(await panel.t.request('GET', `${api}/content/articles/${id}/revisions`, { token: panel.t.adminToken })).items;

beforeAll(async () => {
  await createCollection(
    panel.t,
    'articles',
    [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'summary', label: 'Summary', type: 'text' },
      { slug: 'rank', label: 'Rank', type: 'integer' },
    ],
    { label: 'Articles', labelSingular: 'Article' },
  );
  ({ context, page, cspViolations } = await signedInPage(panel.browser, panel.server, panel.t.admin.id));
}, 60_000);
afterAll(async () => {
  await context?.close();
});

describe('the revisions screen', () => {
  it('lists who saved what when, compares two revisions field by field, and restores the first after asking', { timeout: 90_000 }, async () => {
    const editor = await panel.t.userWithToken(40, ['content:read', 'content:write'], 'grace@example.com');
    const entry = await createEntry(panel.t, 'articles', { data: { title: 'Harbour notes', summary: 'The boats leave at dawn', rank: 1 } });
    panel.t.clock.advance(60_000);
    expectSuccess(await panel.t.request('PUT', `${api}/content/articles/${entry.id}`, { token: editor.token, body: { data: { summary: 'The boats leave at noon with the tide', rank: 2 } } }));
    panel.t.clock.advance(60_000);
    expectSuccess(await panel.t.request('PUT', `${api}/content/articles/${entry.id}`, { token: panel.t.adminToken, body: { data: { title: 'Harbour diary' } } }));
    const [third, second, first] = await revisionsOf(entry.id);
    expect([first!.authorName, second!.authorName, third!.authorName]).toEqual([panel.t.admin.name, editor.user.name, panel.t.admin.name]);

    await page.goto(panel.server.url(`/content/articles/${entry.id}/revisions`));
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Revisions of Harbour diary');
    const history = page.getByRole('region', { name: 'History' }).getByRole('listitem');
    await eventually(() => history.count()).toBe(3);
    expect(await history.nth(0).textContent()).toContain('Revision 3');
    expect(await history.nth(1).textContent()).toContain(`by ${editor.user.name}`);
    expect(await history.nth(2).textContent()).toContain(`by ${panel.t.admin.name}`);

    // By default the newest against the one before it: only the title changed.
    const compare = page.getByRole('region', { name: 'Compare' });
    const field = (label: string) => compare.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(`^${label} `) }) });
    await eventually(() => field('Title').getByRole('heading').textContent()).toBe('Title Changed');
    expect(await field('Summary').getByRole('heading').textContent()).toBe('Summary Unchanged');
    await expectAccessible(page, 'revisions screen');

    // The first against the second: the summary's words, word by word, and the rank before and after.
    await compare.getByLabel('Earlier revision').selectOption(first!.id);
    await compare.getByLabel('Later revision').selectOption(second!.id);
    await page.waitForURL((url) => url.searchParams.get('from') === first!.id && url.searchParams.get('to') === second!.id);
    await eventually(() => field('Summary').getByRole('heading').textContent()).toBe('Summary Changed');
    expect(await field('Summary').locator('del').allTextContents()).toEqual(['removed: dawn']);
    expect(await field('Summary').locator('ins').allTextContents()).toEqual(['added: noon with the tide']);
    expect(await field('Rank').locator('dd').allTextContents()).toEqual(['1', '2']);
    expect(await field('Title').getByRole('heading').textContent()).toBe('Title Unchanged');
    await expectAccessible(page, 'two revisions compared');

    // The comparison is in the URL: loading it again shows the same.
    await page.reload();
    await eventually(() => field('Summary').locator('ins').allTextContents()).toEqual(['added: noon with the tide']);

    // Restore the first: a confirmation first, which can be cancelled.
    await page.getByRole('button', { name: 'Restore revision 1' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Restore revision 1?' });
    await eventually(() => dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'restore confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await eventually(() => dialog.count()).toBe(0);
    expect((await revisionsOf(entry.id)).length).toBe(3);

    await page.getByRole('button', { name: 'Restore revision 1' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore revision 1' }).click();
    await eventually(() => page.getByRole('status').textContent()).toBe('Revision 1 is now the current draft.');
    await eventually(() => history.count()).toBe(4);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Revisions of Harbour notes');

    const { item } = expectSuccess(await panel.t.request('GET', `${api}/content/articles/${entry.id}`, { token: panel.t.adminToken }));
    expect(item.data).toEqual({ title: 'Harbour notes', summary: 'The boats leave at dawn', rank: 1 });
    expect(item.status).toBe('draft');
    expect(cspViolations).toEqual([]);
  });

  it("the editor's sidebar opens a preview of the saved draft in a new tab and links to the revisions", { timeout: 90_000 }, async () => {
    await createCollection(panel.t, 'pages', [{ slug: 'title', label: 'Title', type: 'string', required: true }], { label: 'Pages', supports: ['drafts', 'revisions', 'preview'], urlPattern: '/pages/{slug}' });
    expectSuccess(await panel.t.request('POST', `${api}/settings`, { token: panel.t.adminToken, body: { siteUrl: `${panel.server.origin}/site` } }));
    const entry = await createEntry(panel.t, 'pages', { data: { title: 'Opening hours' }, status: 'published' });
    expectSuccess(await panel.t.request('PUT', `${api}/content/pages/${entry.id}`, { token: panel.t.adminToken, body: { data: { title: 'Opening hours (winter)' } } }));

    await page.goto(panel.server.url(`/content/pages/${entry.id}`));
    const sidebar = page.getByRole('region', { name: 'Preview and history' });
    await eventually(() => sidebar.getByRole('button', { name: 'Preview' }).isVisible()).toBe(true);
    await expectAccessible(page, 'editor with its preview and revisions panel');
    const [tab] = await Promise.all([context.waitForEvent('page'), sidebar.getByRole('button', { name: 'Preview' }).click()]);
    await tab.waitForURL((url) => url.pathname === '/site/pages/opening-hours');
    const token = new URL(tab.url()).searchParams.get('preview')!;
    await tab.close();
    // What the site does with the link: the draft, without credentials.
    const { item } = expectSuccess(await panel.t.request('GET', `${api}/content/pages/opening-hours/preview?token=${encodeURIComponent(token)}`));
    expect(item.data.title).toBe('Opening hours (winter)');

    await sidebar.getByRole('link', { name: 'Revisions' }).click();
    await page.waitForURL(panel.server.url(`/content/pages/${entry.id}/revisions`));
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Revisions of Opening hours (winter)');

    // A collection without preview: the revisions link alone.
    const article = await createEntry(panel.t, 'articles', { data: { title: 'No preview here' } });
    await page.goto(panel.server.url(`/content/articles/${article.id}`));
    await eventually(() => sidebar.getByRole('link', { name: 'Revisions' }).isVisible()).toBe(true);
    expect(await sidebar.getByRole('button', { name: 'Preview' }).count()).toBe(0);
    expect(cspViolations).toEqual([]);
  });

  it("says so when the entry does not exist, in the API's words", { timeout: 60_000 }, async () => {
    await page.goto(panel.server.url('/content/articles/01ARZ3NDEKTSV4RRFFQ69G5FAV/revisions'));
    await eventually(() => page.getByRole('main').textContent()).toContain('not found');
    await expectAccessible(page, 'revisions of a missing entry');
  });
});
