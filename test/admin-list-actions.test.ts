import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { clickCheckbox, eventually, expectAccessible, listRowTitles, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The content list's selection, bulk actions, search and filters (decisions/0047) in Debian's chromium:
 * found by role and label, axe-core on every state, the API asked afterwards for what really happened.
 */
const panel = panelSuite();
let editor: { user: { id: string }; token: string };
let page: Page;
const cspViolations: string[] = [];
const noteCount = 50;

const titleOf = (n: number) => `Note ${String(n).padStart(2, '0')}`;
const ids = async (collection: string, query = '') =>
  (expectSuccess(await panel.t.request('GET', `${api}/content/${collection}?limit=100${query}`, { token: panel.t.adminToken })).items as { id: string; data: { title: string }; status: string }[]);
const trashed = async (collection: string) => expectSuccess(await panel.t.request('GET', `${api}/content/${collection}/trash?limit=100`, { token: panel.t.adminToken })).items as { id: string }[];

beforeAll(async () => {
  editor = await panel.t.userWithToken(roles.editor, ['content:read', 'content:write'], 'editor@example.com');
  await createCollection(panel.t, 'notes', [{ slug: 'title', label: 'Title', type: 'string' }], { label: 'Notes' });
  for (let n = 1; n <= noteCount; n++) await createEntry(panel.t, 'notes', { data: { title: titleOf(n) } });
  await createCollection(panel.t, 'posts', [{ slug: 'title', label: 'Title', type: 'string', searchable: true }], { label: 'Posts', supports: ['drafts', 'revisions', 'search'] });
  expectCreated(await panel.t.request('POST', `${api}/taxonomies`, { token: panel.t.adminToken, body: { name: 'topic', label: 'Topics', collections: ['posts'] } }));
  const topics: Record<string, string> = {};
  for (const slug of ['red', 'blue']) {
    topics[slug] = expectCreated(await panel.t.request('POST', `${api}/taxonomies/topic/terms`, { token: panel.t.adminToken, body: { slug, label: slug === 'red' ? 'Red' : 'Blue' } })).item.id;
  }
  const posts: [string, string | undefined, string][] = [
    ['Zebra crossing', 'red', panel.t.adminToken],
    ['Zebra stripes', 'blue', panel.t.adminToken],
    ['Apple harvest', 'red', editor.token],
    ['Banana bread', undefined, editor.token],
    ['Cherry season', undefined, panel.t.adminToken],
  ];
  for (const [title, topic, token] of posts) {
    const { id } = await createEntry(panel.t, 'posts', { data: { title } }, token);
    if (topic) expectSuccess(await panel.t.request('POST', `${api}/content/posts/${id}/terms/topic`, { token: panel.t.adminToken, body: { termIds: [topics[topic]] } }));
  }
  const signedIn = await signedInPage(panel.browser, panel.server, editor.user.id);
  page = signedIn.page;
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
}, 120_000);

/** Confirms the dialog that names `question`, checked by axe while open, and waits for it to close. */
async function confirm(question: string, button: string, screen: string) {
  const dialog = page.getByRole('alertdialog', { name: question });
  await eventually(() => dialog.isVisible()).toBe(true);
  await expectAccessible(page, screen);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await eventually(() => dialog.count()).toBe(0);
}

describe('the content list in a browser', () => {
  it('moves 50 entries to the trash after a confirmation naming 50, then restores them', { timeout: 120_000 }, async () => {
    await page.goto(panel.server.url('/content/notes?sort=title&order=asc'));
    await eventually(async () => (await listRowTitles(page))[0]).toBe(titleOf(1));
    const toolbar = page.getByRole('toolbar', { name: 'Actions on the selected entries' });
    expect(await toolbar.count()).toBe(0);
    await clickCheckbox(page, 'Select all loaded entries');
    await eventually(() => toolbar.getByText('50 entries selected').isVisible()).toBe(true);
    await expectAccessible(page, 'selection');

    await toolbar.getByRole('button', { name: 'Move to trash' }).click();
    await confirm('Move 50 entries to the trash?', 'Move to trash', 'trash confirmation');
    await eventually(() => page.getByRole('status').filter({ hasText: 'moved' }).textContent()).toBe('50 entries moved to the trash.');
    await eventually(() => listRowTitles(page)).toEqual([]);
    expect(await toolbar.count()).toBe(0);
    expect((await trashed('notes')).length).toBe(noteCount);
    expect(await ids('notes')).toEqual([]);
    await expectAccessible(page, 'after trashing');

    await page.getByRole('radiogroup', { name: 'Status' }).getByText('Trash').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'trash');
    // The rows are virtualized: a few are rendered, every one is loaded (select all names 50 below).
    await eventually(async () => (await listRowTitles(page)).length).toBeGreaterThan(5);
    // The trash offers its own actions, and no publishing.
    await page.locator('[role=rowgroup].entry-table-body label').first().click();
    await eventually(() => toolbar.getByRole('button').allTextContents()).toEqual(['Restore', 'Delete for good']);
    await clickCheckbox(page, 'Select all loaded entries');
    await eventually(() => toolbar.getByText('50 entries selected').isVisible()).toBe(true);
    await toolbar.getByRole('button', { name: 'Restore' }).click();
    await confirm('Restore 50 entries from the trash?', 'Restore', 'restore confirmation');
    await eventually(() => page.getByRole('status').filter({ hasText: 'restored' }).textContent()).toBe('50 entries restored.');
    await eventually(() => listRowTitles(page)).toEqual([]);
    expect(await trashed('notes')).toEqual([]);
    expect((await ids('notes')).length).toBe(noteCount);
    await expectAccessible(page, 'trash emptied');
    expect(cspViolations).toEqual([]);
  });

  it('publishes the selected entries, and names the one that could not be', { timeout: 60_000 }, async () => {
    await page.goto(panel.server.url('/content/notes?sort=title&order=asc'));
    await eventually(async () => (await listRowTitles(page))[0]).toBe(titleOf(1));
    for (const n of [1, 2, 3]) await clickCheckbox(page, `Select ${titleOf(n)}`);
    const toolbar = page.getByRole('toolbar', { name: 'Actions on the selected entries' });
    await eventually(() => toolbar.getByText('3 entries selected').isVisible()).toBe(true);
    // Meanwhile someone else deletes one of them.
    const notes = await ids('notes', '&orderBy=title&order=asc');
    expectSuccess(await panel.t.request('DELETE', `${api}/content/notes/${notes[2]!.id}`, { token: panel.t.adminToken }));
    await toolbar.getByRole('button', { name: 'Publish', exact: true }).click();
    await confirm('Publish 3 entries?', 'Publish', 'publish confirmation');
    const outcome = page.getByRole('status').filter({ hasText: 'could not be done' });
    await eventually(() => outcome.locator('p').textContent()).toBe('1 of 3 could not be done:');
    expect(await outcome.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(new RegExp(`^${titleOf(3)}: .*not found`, 'i'))]);
    const byTitle = new Map((await ids('notes')).map((note) => [note.data.title, note.status]));
    expect([byTitle.get(titleOf(1)), byTitle.get(titleOf(2)), byTitle.get(titleOf(4))]).toEqual(['published', 'published', 'draft']);
    await eventually(() => page.locator('[role=rowgroup].entry-table-body [role=row]').first().locator('[role=cell]').nth(2).textContent()).toBe('Published');
    expect(await toolbar.count()).toBe(0);
    await expectAccessible(page, 'publish outcome');
  });

  it('shows a Contributor no publish or unpublish action, only the trash', { timeout: 60_000 }, async () => {
    const contributor = await panel.t.userWithToken(roles.contributor, ['content:read', 'content:write']);
    const { context, page: contributorPage } = await signedInPage(panel.browser, panel.server, contributor.user.id);
    try {
      await contributorPage.goto(panel.server.url('/content/notes?sort=title&order=asc'));
      await eventually(async () => (await listRowTitles(contributorPage))[0]).toBe(titleOf(1));
      await clickCheckbox(contributorPage, `Select ${titleOf(2)}`);
      const toolbar = contributorPage.getByRole('toolbar', { name: 'Actions on the selected entries' });
      await eventually(() => toolbar.getByRole('button').allTextContents()).toEqual(['Move to trash']);
      expect(await contributorPage.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
      await expectAccessible(contributorPage, "a Contributor's selection");
    } finally {
      await context.close();
    }
  });

  it('narrows the list to a search, kept in the URL through a reload', { timeout: 60_000 }, async () => {
    await page.goto(panel.server.url('/content/posts'));
    await eventually(async () => (await listRowTitles(page)).length).toBe(5);
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill('zebra');
    await box.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === 'zebra');
    await eventually(async () => (await listRowTitles(page)).sort()).toEqual(['Zebra crossing', 'Zebra stripes']);
    await expectAccessible(page, 'search results');
    await page.reload();
    await eventually(async () => (await listRowTitles(page)).sort()).toEqual(['Zebra crossing', 'Zebra stripes']);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('zebra');
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await page.waitForURL((url) => !url.searchParams.has('q'));
    await eventually(async () => (await listRowTitles(page)).length).toBe(5);
  });

  it('filters by a term and by author, both in the URL', { timeout: 60_000 }, async () => {
    await page.goto(panel.server.url('/content/posts?sort=title&order=asc'));
    await eventually(async () => (await listRowTitles(page)).length).toBe(5);
    await page.getByRole('button', { name: 'Filter by term' }).click();
    const term = page.getByRole('combobox', { name: 'Term' });
    await term.fill('Re');
    await page.getByRole('option', { name: 'Red' }).click();
    await page.waitForURL((url) => url.searchParams.get('term') === 'topic:red');
    await eventually(() => listRowTitles(page)).toEqual(['Apple harvest', 'Zebra crossing']);
    await expectAccessible(page, 'filtered by term');

    await clickCheckbox(page, 'Only my entries');
    await page.waitForURL((url) => url.searchParams.get('author') === editor.user.id);
    await eventually(() => listRowTitles(page)).toEqual(['Apple harvest']);
    await page.reload();
    await eventually(() => listRowTitles(page)).toEqual(['Apple harvest']);
    await eventually(() => page.getByRole('combobox', { name: 'Term' }).inputValue()).toBe('Red');
    await page.getByRole('button', { name: 'Any term' }).click();
    await page.waitForURL((url) => !url.searchParams.has('term'));
    await eventually(() => listRowTitles(page)).toEqual(['Apple harvest', 'Banana bread']);
    await expectAccessible(page, 'filtered by author');
    expect(cspViolations).toEqual([]);
  });
});
