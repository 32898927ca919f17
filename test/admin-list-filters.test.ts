import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { eventually, expectAccessible, listRowTitles, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The content list's filters by locale and by author, and the reference picker that asks the API by
 * title (decisions/0049), in Debian's chromium: found by role and label, axe-core on each state.
 */
const panel = panelSuite();
let page: Page;
let turing: { user: { id: string }; token: string };
const cspViolations: string[] = [];
/** More than the 100 most recent entries the picker once filtered in the browser. */
const peopleCount = 105;

const rename = async (id: string, name: string) => expectSuccess(await panel.t.request('PATCH', `${api}/admin/users/${id}`, { token: panel.t.adminToken, body: { name } }));
/** The cells of the rendered rows' locale column (the third: selection, title, locale). */
const rowLocales = (on: Page) => on.locator('[role=rowgroup].entry-table-body [role=row] [role=cell]:nth-child(3)').allTextContents();

beforeAll(async () => {
  const editor = await panel.t.userWithToken(roles.editor, ['content:read', 'content:write'], 'editor@example.com');
  turing = await panel.t.userWithToken(roles.contributor, ['content:read', 'content:write']);
  await rename(panel.t.admin.id, 'Ada Lovelace');
  await rename(editor.user.id, 'Grace Hopper');
  await rename(turing.user.id, 'Alan Turing');
  expectSuccess(await panel.t.request('POST', `${api}/settings`, { token: panel.t.adminToken, body: { locales: ['en', 'fr'] } }));
  await createCollection(panel.t, 'posts', [{ slug: 'title', label: 'Title', type: 'string' }], { label: 'Posts' });
  const posts: [string, string, string][] = [
    ['Apple harvest', 'en', panel.t.adminToken],
    ['Banana bread', 'en', turing.token],
    ['Cerises', 'fr', panel.t.adminToken],
    ['Dattes', 'fr', turing.token],
    ['Eggs', 'en', editor.token],
  ];
  for (const [title, locale, token] of posts) await createEntry(panel.t, 'posts', { data: { title }, locale }, token);

  // The oldest of many people, then more than a page of newer ones.
  await createCollection(panel.t, 'people', [{ slug: 'name', label: 'Name', type: 'string' }], { label: 'People', labelSingular: 'Person' });
  await createEntry(panel.t, 'people', { data: { name: 'Ada Oldest' } });
  for (let n = 1; n <= peopleCount; n++) await createEntry(panel.t, 'people', { data: { name: `Person ${String(n).padStart(3, '0')}` } });
  await createCollection(panel.t, 'articles', [
    { slug: 'title', label: 'Title', type: 'string' },
    { slug: 'subject', label: 'Subject', type: 'reference', options: { collection: 'people' } },
  ], { label: 'Articles', labelSingular: 'Article' });

  const signedIn = await signedInPage(panel.browser, panel.server, editor.user.id);
  page = signedIn.page;
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
}, 180_000);

describe('the content list filters in a browser', () => {
  it('filters by locale, in the URL, with a Locale column while every locale is listed', { timeout: 60_000 }, async () => {
    await page.goto(panel.server.url('/content/posts?sort=title&order=asc'));
    await eventually(() => listRowTitles(page)).toEqual(['Apple harvest', 'Banana bread', 'Cerises', 'Dattes', 'Eggs']);
    expect(await page.getByRole('columnheader', { name: 'Locale' }).count()).toBe(1);
    expect(await rowLocales(page)).toEqual(['en', 'en', 'fr', 'fr', 'en']);
    const locale = page.getByRole('combobox', { name: 'Locale' });
    expect(await locale.inputValue()).toBe('');
    await expectAccessible(page, 'list of every locale');

    await locale.selectOption({ label: 'fr' });
    await page.waitForURL((url) => url.searchParams.get('locale') === 'fr');
    await eventually(() => listRowTitles(page)).toEqual(['Cerises', 'Dattes']);
    expect(await page.getByRole('columnheader', { name: 'Locale' }).count()).toBe(0);
    await page.reload();
    await eventually(() => listRowTitles(page)).toEqual(['Cerises', 'Dattes']);
    expect(await page.getByRole('combobox', { name: 'Locale' }).inputValue()).toBe('fr');
    await expectAccessible(page, 'list filtered by locale');

    await page.getByRole('combobox', { name: 'Locale' }).selectOption({ label: 'All locales' });
    await page.waitForURL((url) => !url.searchParams.has('locale'));
    await eventually(async () => (await listRowTitles(page)).length).toBe(5);
  });

  it('filters by an author found by name as one types, in the URL', { timeout: 60_000 }, async () => {
    await page.goto(panel.server.url('/content/posts?sort=title&order=asc'));
    await eventually(async () => (await listRowTitles(page)).length).toBe(5);
    await page.getByRole('button', { name: 'Filter by author' }).click();
    const author = page.getByRole('combobox', { name: 'Author' });
    await author.fill('tur');
    await eventually(() => page.getByRole('option').allTextContents()).toEqual(['Alan Turing']);
    await page.getByRole('option', { name: 'Alan Turing' }).click();
    await page.waitForURL((url) => url.searchParams.get('author') === turing.user.id);
    await eventually(() => listRowTitles(page)).toEqual(['Banana bread', 'Dattes']);
    // (axe runs with the popover closed: while open, React Aria hides the rest of the page from assistive technology.)
    await expectAccessible(page, 'author chosen');

    await page.reload();
    await eventually(() => listRowTitles(page)).toEqual(['Banana bread', 'Dattes']);
    await eventually(() => page.getByRole('combobox', { name: 'Author' }).inputValue()).toBe('Alan Turing');
    await expectAccessible(page, 'list filtered by author');

    // Both filters at once, then the author filter cleared.
    await page.getByRole('combobox', { name: 'Locale' }).selectOption({ label: 'fr' });
    await eventually(() => listRowTitles(page)).toEqual(['Dattes']);
    await page.getByRole('button', { name: 'Any author' }).click();
    await page.waitForURL((url) => !url.searchParams.has('author') && url.searchParams.get('locale') === 'fr');
    await eventually(() => listRowTitles(page)).toEqual(['Cerises', 'Dattes']);
    expect(cspViolations).toEqual([]);
  });
});

describe('the reference picker in a browser', () => {
  it(`finds the oldest of ${peopleCount + 1} entries by its title through the API`, { timeout: 60_000 }, async () => {
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/_cms/api/content/people' && url.searchParams.has('q')) asked.push(url.searchParams.get('q')!);
    });
    await page.goto(panel.server.url('/content/articles/new'));
    const subject = page.getByRole('combobox', { name: 'Subject' });
    await subject.fill('Ada');
    await eventually(() => page.getByRole('option').allTextContents()).toEqual(['Ada Oldest']);
    expect(asked).toEqual(['Ada']);
    await page.getByRole('option', { name: 'Ada Oldest' }).click();
    await eventually(() => subject.inputValue()).toBe('Ada Oldest');
    await expectAccessible(page, 'reference chosen');

    // Twenty of the many that match, the most recently changed first.
    await subject.fill('Person');
    await eventually(() => page.getByRole('option').count()).toBe(20);
    expect(await page.getByRole('option').first().textContent()).toBe(`Person ${peopleCount}`);
    expect(cspViolations).toEqual([]);
  });
});
