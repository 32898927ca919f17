import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { tinyPng, uploadMedia } from './support/media.ts';
import { eventually, expectAccessible, panelSuite, signedInPage } from './support/panel.ts';
import { sessionCookieFor } from './support/sessions.ts';

/**
 * The entry editor (decisions/0043) in Debian's chromium: a form generated from the collection's
 * fields, the life cycle as the role allows, and work never lost (autosave in order with `_rev`,
 * the conflict dialog, unsent edits kept in IndexedDB, signing in again in place).
 */
const panel = panelSuite();
let adaId: string;

beforeAll(async () => {
  expectSuccess(await panel.t.request('POST', `${api}/settings`, { token: panel.t.adminToken, body: { timezone: 'Europe/Paris' } }));
  await createCollection(panel.t, 'people', [{ slug: 'name', label: 'Name', type: 'string' }], { label: 'People', labelSingular: 'Person' });
  adaId = (await createEntry(panel.t, 'people', { data: { name: 'Ada Lovelace' }, status: 'published' })).id;
  await createEntry(panel.t, 'people', { data: { name: 'Grace Hopper' }, status: 'published' });
  await createCollection(
    panel.t,
    'articles',
    [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'summary', label: 'Summary', type: 'text' },
      { slug: 'rank', label: 'Rank', type: 'integer', validation: { min: 1, max: 10 } },
      { slug: 'price', label: 'Price', type: 'number' },
      { slug: 'featured', label: 'Featured', type: 'boolean' },
      { slug: 'starts_at', label: 'Starts at', type: 'datetime' },
      { slug: 'kind', label: 'Kind', type: 'select', validation: { options: ['news', 'essay'] } },
      { slug: 'tags', label: 'Tags', type: 'multiSelect', validation: { options: ['red', 'green', 'blue'] } },
      { slug: 'handle', label: 'Handle', type: 'slug' },
      { slug: 'link', label: 'Link', type: 'url' },
      { slug: 'meta', label: 'Meta', type: 'json' },
      { slug: 'author', label: 'Author', type: 'reference', options: { collection: 'people' } },
      { slug: 'cover', label: 'Cover', type: 'image' },
      { slug: 'body', label: 'Body', type: 'portableText' },
    ],
    { label: 'Articles', labelSingular: 'Article' },
  );
}, 120_000);


const entryUrl = (id: string) => panel.server.url(`/content/articles/${id}`);
const readEntry = async (id: string) => (await panel.t.request('GET', `${api}/content/articles/${id}`, { token: panel.t.adminToken })).body?.data?.item;

/** What the panel keeps of an entry's unsent edits in the browser (IndexedDB, local-drafts.ts), or null. */
const unsentEditsKept = (page: Page, key: string) =>
  page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open('folio-panel');
    open.onerror = () => resolve(null);
    open.onsuccess = () => {
      const read = open.result.transaction('unsent-edits').objectStore('unsent-edits').get(${JSON.stringify(key)});
      read.onerror = () => resolve(null);
      read.onsuccess = () => { resolve(read.result ? read.result.edits : null); open.result.close(); };
    };
  })`);

const hasFocus = (locator: Locator) => locator.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);

async function adminPage() {
  return signedInPage(panel.browser, panel.server, panel.t.admin.id);
}

describe('the entry editor', () => {
  it('creates an entry from every kind of field, publishes it, and the API reads it back exactly as typed', { timeout: 90_000 }, async () => {
    const { context, page, cspViolations } = await adminPage();
    try {
      await page.goto(panel.server.url('/content/articles'));
      await page.getByRole('link', { name: 'New Article' }).click();
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('New Article');
      await expectAccessible(page, 'new entry');

      await page.getByLabel('Title').fill('Hello, Wörld');
      await eventually(() => page.getByLabel('Handle').inputValue()).toBe('hello-world');
      await page.getByLabel('Summary').fill('First line\nSecond line');
      await page.getByLabel('Rank').fill('7');
      await page.getByLabel('Price').fill('3.5');
      await page.getByLabel('Featured').check();
      await page.getByLabel('Kind').selectOption('essay');
      await page.getByRole('group', { name: 'Tags' }).getByLabel('blue').check();
      await page.getByRole('group', { name: 'Tags' }).getByLabel('red').check();
      await page.getByLabel('Link').fill('https://example.com/a?b=1');
      await page.getByLabel('Meta').fill('{"a": [1, 2');
      await eventually(() => page.getByText('Not valid JSON yet').count()).toBe(1);
      expect(await page.getByLabel('Meta').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Meta').fill('{"a": [1, 2], "b": null}');
      await eventually(() => page.getByText('Not valid JSON yet').count()).toBe(0);
      // The datetime is typed in the site's time zone (Paris, summer: UTC+2), segment by segment.
      const startsAt = page.getByRole('group', { name: 'Starts at' });
      await startsAt.getByRole('spinbutton', { name: /month/i }).click();
      await page.keyboard.type('06152030');
      await page.keyboard.type('0930');
      await page.keyboard.type('AM');
      const author = page.getByRole('combobox', { name: 'Author' });
      await author.fill('Ada');
      await page.getByRole('option', { name: 'Ada Lovelace' }).click();
      await eventually(() => page.getByRole('listbox').count()).toBe(0);
      await eventually(() => author.inputValue()).toBe('Ada Lovelace');
      await expectAccessible(page, 'new entry, filled');

      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await eventually(() => page.getByRole('complementary').getByText('Published', { exact: true }).count()).toBe(1);
      const id = /\/content\/articles\/([0-9A-Z]{26})$/.exec(page.url())?.[1];
      expect(id).toBeDefined();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');

      const item = await readEntry(id!);
      expect(item.status).toBe('published');
      expect(item.data).toMatchObject({
        title: 'Hello, Wörld',
        handle: 'hello-world',
        summary: 'First line\nSecond line',
        rank: 7,
        price: 3.5,
        featured: true,
        kind: 'essay',
        tags: ['red', 'blue'],
        link: 'https://example.com/a?b=1',
        meta: { a: [1, 2], b: null },
        starts_at: '2030-06-15T07:30:00.000Z',
        author: adaId,
      });
      expect(cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps a new entry\'s form across its first save: the same field, the keys typed while it was sent, focus and caret', { timeout: 90_000 }, async () => {
    const { context, page } = await adminPage();
    // The request that creates the entry is held until the test lets it go, as a slow server would.
    let release: () => Promise<void> = async () => undefined;
    let heldNow: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (heldNow = resolve));
    await page.route(
      (url) => url.pathname === '/_cms/api/content/articles',
      async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        release = () => route.continue();
        heldNow();
      },
    );
    try {
      await page.goto(panel.server.url('/content/articles'));
      await page.getByRole('link', { name: 'New Article' }).click();
      // The editor once it is there: until its route has loaded the list is still on screen, and
      // its "Sort by Title" button would take the click and the keys.
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('New Article');
      expect(page.url()).toBe(panel.server.url('/content/articles/new'));
      const title = page.getByLabel('Title');
      await title.click();
      // A mark on the very input typed in: a remounted form would carry a new one without it.
      await title.evaluate((element) => Object.assign(element, { typedInBeforeTheSave: true }));
      await page.keyboard.type('Written ');
      await held;
      await page.keyboard.type('while saving', { delay: 20 });
      expect(page.url()).toBe(panel.server.url('/content/articles/new'));
      // The save answers while keys are still coming.
      const typing = page.keyboard.type(' and after', { delay: 60 });
      await release();
      await typing;
      await eventually(() => page.url()).toMatch(/\/content\/articles\/[0-9A-Z]{26}$/);
      const id = /([0-9A-Z]{26})$/.exec(page.url())![1]!;
      expect(await title.inputValue()).toBe('Written while saving and after');
      expect(await title.evaluate((element) => 'typedInBeforeTheSave' in element)).toBe(true);
      expect(await hasFocus(title)).toBe(true);
      expect(await title.evaluate((element) => (element as unknown as { selectionStart: number }).selectionStart)).toBe('Written while saving and after'.length);
      await page.keyboard.type('!');
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      expect(await title.inputValue()).toBe('Written while saving and after!');
      expect((await readEntry(id)).data.title).toBe('Written while saving and after!');
      expect(page.url()).toBe(entryUrl(id));
    } finally {
      await context.close();
    }
  });

  it('shows a value the API refused at its field, and keeps the form', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Ranked' } });
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await page.getByLabel('Rank').fill('50');
      await eventually(() => page.getByLabel('Rank').getAttribute('aria-invalid')).toBe('true');
      const describedBy = await page.getByLabel('Rank').getAttribute('aria-describedby');
      expect(await page.locator(`#${describedBy}`).textContent()).toMatch(/at most 10/);
      expect(await page.getByRole('status').first().textContent()).toMatch(/refused/);
      expect(await page.getByLabel('Rank').inputValue()).toBe('50');
      await expectAccessible(page, 'validation error');
      await page.getByLabel('Rank').fill('5');
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      expect(await page.getByLabel('Rank').getAttribute('aria-invalid')).toBeNull();
      expect((await readEntry(id)).data.rank).toBe(5);
    } finally {
      await context.close();
    }
  });

  it('saves by itself once typing stops, and a reload finds the text', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Autosaved' } });
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await page.getByLabel('Summary').pressSequentially('Typed and left alone', { delay: 5 });
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      await page.reload();
      await eventually(() => page.getByLabel('Summary').inputValue()).toBe('Typed and left alone');
      expect((await readEntry(id)).data.summary).toBe('Typed and left alone');
    } finally {
      await context.close();
    }
  });

  it('keeps what is typed offline and saves it all once the connection is back', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Offline' } });
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await eventually(() => page.getByLabel('Title').inputValue()).toBe('Offline');
      await context.setOffline(true);
      await page.getByLabel('Summary').fill('Written on a train');
      await page.getByLabel('Rank').fill('3');
      await eventually(() => page.getByRole('status').first().textContent()).toMatch(/^Offline/);
      await context.setOffline(false);
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      const item = await readEntry(id);
      expect(item.data).toMatchObject({ summary: 'Written on a train', rank: 3 });
    } finally {
      await context.close();
    }
  });

  it('offers back, after the tab closed, the edits that were never sent', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Closed tab' } });
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await eventually(() => page.getByLabel('Title').inputValue()).toBe('Closed tab');
      await context.setOffline(true);
      await page.getByLabel('Summary').fill('Never sent');
      await eventually(() => page.getByRole('status').first().textContent()).toMatch(/^Offline/);
      // The tab closes only once the browser holds the copy: a loaded machine can lag its write.
      await eventually(() => unsentEditsKept(page, `articles/${id}`)).toEqual({ summary: 'Never sent' });
      await page.close({ runBeforeUnload: false });
      // Read while still offline: a closed page's renderer may outlive close() by a moment, and back
      // online it would send its retry (a clean-clone CI run on SQLite saw the save arrive here).
      expect((await readEntry(id)).data.summary).toBeNull();
      await context.setOffline(false);

      const again = await context.newPage();
      await again.goto(entryUrl(id));
      const offer = again.getByRole('region', { name: 'Unsaved changes found' });
      await eventually(() => offer.textContent()).toContain('Summary');
      await expectAccessible(again, 'unsaved changes offered back');
      await offer.getByRole('button', { name: 'Restore them' }).click();
      await eventually(() => again.getByLabel('Summary').inputValue()).toBe('Never sent');
      await eventually(() => again.getByRole('status').first().textContent()).toBe('All changes saved.');
      expect((await readEntry(id)).data.summary).toBe('Never sent');
    } finally {
      await context.close();
    }
  });

  it('gives the second of two editors the conflict dialog, and loses nothing of either', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Shared', summary: 'Start' } });
    const first = await adminPage();
    const second = await adminPage();
    try {
      await first.page.goto(entryUrl(id));
      await second.page.goto(entryUrl(id));
      await eventually(() => second.page.getByLabel('Summary').inputValue()).toBe('Start');
      await first.page.getByLabel('Summary').fill('Theirs');
      await eventually(() => first.page.getByRole('status').first().textContent()).toBe('All changes saved.');

      await second.page.getByLabel('Summary').fill('Mine');
      await second.page.getByLabel('Price').fill('9.5');
      const dialog = second.page.getByRole('dialog', { name: 'Someone else changed this entry' });
      await eventually(() => dialog.count()).toBe(1);
      expect(await dialog.textContent()).toContain('Theirs');
      expect(await dialog.textContent()).toContain('Mine');
      await expectAccessible(second.page, 'conflict dialog');
      await dialog.getByText('Both', { exact: true }).click();
      await dialog.getByRole('button', { name: 'Keep these and save' }).click();
      await eventually(() => second.page.getByRole('status').first().textContent()).toBe('All changes saved.');
      expect(await second.page.getByLabel('Summary').inputValue()).toBe('Theirs\n\nMine');
      expect((await readEntry(id)).data).toMatchObject({ summary: 'Theirs\n\nMine', price: 9.5 });
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it('asks to sign in again in place when the session ends, and saves after', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Session' } });
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await eventually(() => page.getByLabel('Title').inputValue()).toBe('Session');
      await context.clearCookies();
      await page.getByLabel('Summary').fill('Typed while signed out');
      const dialog = page.getByRole('alertdialog', { name: 'Your session ended' });
      await eventually(() => dialog.count()).toBe(1);
      expect(page.url()).toBe(entryUrl(id));
      await expectAccessible(page, 'session ended');
      const [name, value] = (await sessionCookieFor(panel.t, panel.t.admin.id)).split('=') as [string, string];
      await context.addCookies([{ name, value, url: panel.server.origin }]);
      await dialog.getByRole('button', { name: 'I signed in, retry' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      expect((await readEntry(id)).data.summary).toBe('Typed while signed out');
    } finally {
      await context.close();
    }
  });

  it('explains an entry deleted in another tab and still offers what was typed', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Doomed' } });
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await eventually(() => page.getByLabel('Title').inputValue()).toBe('Doomed');
      expectSuccess(await panel.t.request('DELETE', `${api}/content/articles/${id}`, { token: panel.t.adminToken }));
      await page.getByLabel('Summary').fill('Still mine');
      await eventually(() => page.getByRole('alert').filter({ hasText: 'was deleted' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Save everything as a new entry' }).click();
      await eventually(() => page.url()).not.toBe(entryUrl(id));
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      const copy = /\/content\/articles\/([0-9A-Z]{26})$/.exec(page.url())![1]!;
      expect((await readEntry(copy)).data).toMatchObject({ title: 'Doomed', summary: 'Still mine' });
    } finally {
      await context.close();
    }
  });

  it('offers a Contributor drafts but no publish button', async () => {
    const contributor = await panel.t.userWithToken(20, ['content:read', 'content:write']);
    const { context, page } = await signedInPage(panel.browser, panel.server, contributor.user.id);
    try {
      await page.goto(panel.server.url('/content/articles/new'));
      await page.getByLabel('Title').fill('A contribution');
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      // The saved entry's page (its address now has the id) shows its actions once it has read the entry back.
      await eventually(() => page.getByRole('button', { name: 'Save draft' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /^Publish/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Schedule' }).count()).toBe(0);
      await expectAccessible(page, 'contributor');
    } finally {
      await context.close();
    }
  });

  it('moves an entry to the trash and restores it', async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Trash me' }, status: 'published' });
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await page.getByRole('button', { name: 'Move to trash' }).click();
      await eventually(() => page.getByRole('button', { name: 'Restore from trash' }).count()).toBe(1);
      expect((await panel.t.request('GET', `${api}/content/articles/${id}`, { token: panel.t.adminToken })).status).toBe(404);
      await expectAccessible(page, 'trashed entry');
      await page.getByRole('button', { name: 'Restore from trash' }).click();
      await eventually(() => page.getByRole('button', { name: 'Move to trash' }).count()).toBe(1);
      expect((await readEntry(id)).status).toBe('published');
    } finally {
      await context.close();
    }
  });

  it('publishes changes over a live version, discards a draft, unpublishes, schedules, duplicates and deletes for good', { timeout: 90_000 }, async () => {
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Live' }, status: 'published' });
    const { context, page } = await adminPage();
    const sidebar = page.getByRole('complementary');
    try {
      await page.goto(entryUrl(id));
      await page.getByLabel('Summary').fill('Staged');
      await eventually(() => page.getByRole('status').first().textContent()).toBe('All changes saved.');
      await eventually(() => sidebar.textContent()).toContain('with unpublished changes');
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await eventually(() => page.getByLabel('Summary').inputValue()).toBe('');
      expect((await readEntry(id)).data.summary).toBeNull();

      await page.getByLabel('Summary').fill('Published change');
      await page.getByRole('button', { name: 'Publish changes' }).click();
      // Published: saved, then live, with no draft staged over it.
      await eventually(async () => {
        const item = await readEntry(id);
        return { summary: item.data.summary, staged: item.liveData !== undefined };
      }).toEqual({ summary: 'Published change', staged: false });
      await eventually(() => page.getByRole('button', { name: 'Unpublish' }).isEnabled()).toBe(true);

      await page.getByRole('button', { name: 'Unpublish' }).click();
      await eventually(() => sidebar.getByText('Draft', { exact: true }).count()).toBe(1);
      expect((await readEntry(id)).status).toBe('draft');

      // Scheduled a year ahead, typed in the site's time zone.
      const schedule = sidebar.getByRole('group', { name: 'Publish at' });
      await schedule.getByRole('spinbutton', { name: /month/i }).click();
      await page.keyboard.type(`0101${new Date().getUTCFullYear() + 1}`);
      await page.keyboard.type('1000');
      await page.keyboard.type('AM');
      await sidebar.getByRole('button', { name: 'Schedule' }).click();
      await eventually(() => sidebar.getByText('Scheduled', { exact: true }).count()).toBe(1);
      expect((await readEntry(id)).scheduledAt).toBe(`${new Date().getUTCFullYear() + 1}-01-01T09:00:00.000Z`);
      await expectAccessible(page, 'scheduled entry');
      await page.getByRole('button', { name: 'Cancel schedule' }).click();
      await eventually(() => sidebar.getByText('Draft', { exact: true }).count()).toBe(1);

      await page.getByRole('button', { name: 'Duplicate' }).click();
      await eventually(() => page.url()).not.toBe(entryUrl(id));
      const copy = /\/content\/articles\/([0-9A-Z]{26})$/.exec(page.url())![1]!;
      await eventually(() => page.getByLabel('Summary').inputValue()).toBe('Published change');

      await page.getByRole('button', { name: 'Move to trash' }).click();
      await page.getByRole('button', { name: 'Delete for good' }).click();
      await eventually(() => page.getByText('Delete this entry for good?').count()).toBe(1);
      await expectAccessible(page, 'delete confirmation');
      await page.getByRole('group', { name: /Delete this entry for good/ }).getByRole('button', { name: 'Delete for good' }).click();
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Articles');
      expect((await panel.t.request('POST', `${api}/content/articles/${copy}/restore`, { token: panel.t.adminToken })).status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('shows a deleted referenced entry or media item as missing, never a crash', async () => {
    const gone = await createEntry(panel.t, 'people', { data: { name: 'Gone soon' } });
    const image = await uploadMedia(panel.t, await tinyPng('#0a0'), { alt: 'A green square' });
    const doomed = await uploadMedia(panel.t, await tinyPng('#a00'));
    const { id } = await createEntry(panel.t, 'articles', { data: { title: 'Pointing', author: gone.id, cover: { id: doomed.id } } });
    const { id: kept } = await createEntry(panel.t, 'articles', { data: { title: 'Pictured', cover: { id: image.id } } });
    expectSuccess(await panel.t.request('DELETE', `${api}/content/people/${gone.id}`, { token: panel.t.adminToken }));
    expectSuccess(await panel.t.request('DELETE', `${api}/media/${doomed.id}`, { token: panel.t.adminToken }));
    const { context, page } = await adminPage();
    try {
      await page.goto(entryUrl(id));
      await eventually(() => page.getByText(`Missing: the entry ${gone.id}`).count()).toBe(1);
      await eventually(() => page.getByText(`Missing: the media item ${doomed.id}`).count()).toBe(1);
      await expectAccessible(page, 'missing references');
      await page.goto(entryUrl(kept));
      await eventually(() => page.getByRole('img', { name: 'A green square' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
