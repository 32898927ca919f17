import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceWithPasskeys } from './support/browser.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';
import { tinyPng } from './support/media.ts';
import { eventually, expectAccessible, framesAfterClosing, hasFocus, panelSuite, signedInPage, tabTo } from './support/panel.ts';
import { sessionCookieFor } from './support/sessions.ts';

/**
 * Whole journeys through the panel, each ending where a site's visitor would see the result: the
 * public API, read without credentials (the site's `publicRead` is on).
 */
const panel = panelSuite();

beforeAll(async () => {
  expectSuccess(await panel.t.request('POST', `${api}/settings`, { token: panel.t.adminToken, body: { publicRead: true, timezone: 'UTC' } }));
  await createCollection(
    panel.t,
    'stories',
    [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'body', label: 'Body', type: 'portableText' },
    ],
    { label: 'Stories', labelSingular: 'Story' },
  );
  expectCreated(await panel.t.request('POST', `${api}/taxonomies`, { token: panel.t.adminToken, body: { name: 'topics', label: 'Topics', labelSingular: 'Topic', collections: ['stories'] } }));
  for (const [slug, label] of [['sky', 'Sky'], ['sea', 'Sea']]) {
    expectCreated(await panel.t.request('POST', `${api}/taxonomies/topics/terms`, { token: panel.t.adminToken, body: { slug, label } }));
  }
}, 120_000);


/** What a visitor reads of an entry: the public API, no token. */
async function publicEntry(id: string) {
  const response = await panel.t.request('GET', `${api}/content/stories/${id}`);
  return response.status === 200 ? (response.body.data.item as { status: string; data: { title: string; body?: unknown[] } }) : undefined;
}

const entryIdOf = (page: Page) => /\/content\/stories\/([0-9A-Z]{26})$/.exec(page.url())?.[1];

describe('journeys through the panel', () => {
  it('from signing in with a passkey to a published entry, with the keyboard alone', { timeout: 120_000 }, async () => {
    const editor = await panel.t.userWithToken(40, ['content:read', 'content:write'], 'keys@example.com');
    const { context, page } = await deviceWithPasskeys(panel.browser);
    try {
      // The passkey is made beforehand, in a session, as the account page offers.
      const [name, value] = (await sessionCookieFor(panel.t, editor.user.id)).split('=') as [string, string];
      await context.addCookies([{ name, value, url: panel.server.origin }]);
      await page.goto(`${panel.server.origin}/_cms/`);
      await page.getByLabel('Name of a new passkey').fill('Keyboard');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await eventually(() => page.getByRole('status').textContent()).toBe('Passkey added.');
      await context.clearCookies();

      // From here on, keys only.
      await page.goto(panel.server.url('/'));
      await page.waitForURL((url) => url.pathname === '/_cms/sign-in');
      await tabTo(page, page.getByRole('button', { name: 'Sign in with a passkey' }));
      await page.keyboard.press('Enter');
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');

      await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stories' }));
      await page.keyboard.press('Enter');
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Stories');
      await tabTo(page, page.getByRole('link', { name: 'New Story' }));
      await page.keyboard.press('Enter');

      await tabTo(page, page.getByRole('textbox', { name: 'Title' }));
      await page.keyboard.type('Typed, not clicked');
      await tabTo(page, page.getByRole('textbox', { name: 'Body' }));
      await page.keyboard.type('Every word of it from the keyboard.');
      await tabTo(page, page.getByRole('button', { name: 'Publish', exact: true }));
      await page.keyboard.press('Enter');

      await eventually(() => entryIdOf(page)).toBeDefined();
      const id = entryIdOf(page)!;
      await eventually(async () => {
        const item = await publicEntry(id);
        return item && { status: item.status, title: item.data.title, text: blockTexts(item.data.body) };
      }).toEqual({ status: 'published', title: 'Typed, not clicked', text: ['Every word of it from the keyboard.'] });
      await expectAccessible(page, 'entry published from the keyboard');
    } finally {
      await context.close();
    }
  });

  it('writes rich text with a link and an image uploaded in the picker, adds a term, publishes, and visitors read it exactly as typed', { timeout: 150_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    const body = page.getByRole('textbox', { name: 'Body' });
    try {
      await page.goto(panel.server.url('/content/stories/new'));
      await page.getByRole('textbox', { name: 'Title' }).fill('Northern lights');
      await body.click();
      await eventually(() => hasFocus(body)).toBe(true);
      await page.keyboard.type('Auroras are ');
      await page.keyboard.press('Control+b');
      await page.keyboard.type('bright');
      await page.keyboard.press('Control+b');
      await page.keyboard.type(' tonight: see the forecast');
      // The last word selected from the keyboard once the editor shows it, then linked. One key selects
      // it whole, so the Link button enabled says the editor holds that selection (it follows the page's
      // selection a moment later).
      const linkButton = page.getByRole('toolbar', { name: 'Formatting of Body' }).getByRole('button', { name: 'Link' });
      await eventually(() => body.textContent()).toContain('see the forecast');
      expect(await linkButton.isEnabled()).toBe(false);
      await page.keyboard.press('Control+Shift+ArrowLeft');
      await eventually(() => linkButton.isEnabled()).toBe(true);
      expect(await page.evaluate(() => String((globalThis as unknown as { getSelection: () => unknown }).getSelection()))).toBe('forecast');
      await page.keyboard.press('Control+k');
      const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
      await linkDialog.getByRole('textbox', { name: 'URL' }).fill('https://example.com/forecast');
      await linkDialog.getByRole('button', { name: 'Save' }).click();
      await eventually(() => body.locator('.pt-link').textContent()).toBe('forecast');
      // The caret after the link once the editor has put its selection back: the image inserted next
      // goes after the linked word instead of replacing it.
      await eventually(() => hasFocus(body)).toBe(true);
      await framesAfterClosing(page);
      // An image uploaded from inside the library's picker, then described.
      await page.getByRole('toolbar', { name: 'Formatting of Body' }).getByRole('button', { name: 'Insert' }).click();
      await page.getByRole('menuitem', { name: 'Image from the media library' }).click();
      const picker = page.getByRole('dialog', { name: 'Choose an image' });
      const chooser = page.waitForEvent('filechooser');
      await picker.getByRole('button', { name: 'Choose files' }).click();
      await (await chooser).setFiles({ name: 'aurora.png', mimeType: 'image/png', buffer: await tinyPng('#2c8') });
      await picker.getByRole('button', { name: 'aurora.png' }).click();
      await eventually(() => page.getByRole('dialog').count()).toBe(0);
      await page.getByRole('button', { name: 'Edit alt text' }).click();
      const altDialog = page.getByRole('dialog');
      await altDialog.getByRole('textbox').first().fill('A green aurora');
      await altDialog.getByRole('button', { name: 'Save' }).click();
      await eventually(() => page.getByRole('img', { name: 'A green aurora' }).count()).toBe(1);

      const topics = page.getByRole('combobox', { name: 'Add a Topic' });
      await topics.fill('sk');
      await page.getByRole('option', { name: 'Sky' }).click();
      await page.keyboard.press('Escape');
      await eventually(() => page.getByRole('list', { name: 'Topics' }).getByRole('listitem').allTextContents()).toEqual(['SkyRemove']);
      await expectAccessible(page, 'entry with rich text, an image and a term');

      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await eventually(() => entryIdOf(page)).toBeDefined();
      const id = entryIdOf(page)!;
      const media = (expectSuccess(await panel.t.request('GET', `${api}/media?q=aurora`, { token: panel.t.adminToken })) as { items: { id: string; url: string }[] }).items;
      expect(media).toHaveLength(1);

      await eventually(async () => (await publicEntry(id))?.status).toBe('published');
      const read = (await publicEntry(id))!;
      expect(read.data.title).toBe('Northern lights');
      const [paragraph, image, ...rest] = read.data.body as [Block, Block, ...Block[]];
      expect(rest).toEqual([]);
      expect(shape(paragraph)).toEqual({
        style: 'normal',
        spans: [['Auroras are '], ['bright', 'strong'], [' tonight: see the '], ['forecast', 'link:https://example.com/forecast']],
      });
      expect(image).toMatchObject({ _type: 'image', id: media[0]!.id, url: media[0]!.url, alt: 'A green aurora' });
      const terms = await panel.t.request('GET', `${api}/content/stories/${id}/terms/topics`);
      expect(terms.status).toBe(200);
      expect((terms.body.data.items as { slug: string }[]).map((term) => term.slug)).toEqual(['sky']);
    } finally {
      await context.close();
    }
  });

  it('schedules an entry with the date picker, and once its time comes it is published on the list and for visitors', { timeout: 120_000 }, async () => {
    const { id } = await createEntry(panel.t, 'stories', { data: { title: 'Eclipse at noon' } });
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    const sidebar = page.getByRole('complementary');
    try {
      await page.goto(panel.server.url(`/content/stories/${id}`));
      // Ten minutes from now, typed in the site's time zone (UTC), to the minute.
      const when = new Date(Math.ceil((Date.now() + 10 * 60_000) / 60_000) * 60_000);
      const hour = when.getUTCHours() % 12 === 0 ? 12 : when.getUTCHours() % 12;
      const two = (n: number) => String(n).padStart(2, '0');
      const schedule = sidebar.getByRole('group', { name: 'Publish at' });
      await schedule.getByRole('spinbutton', { name: /month/i }).click();
      await page.keyboard.type(`${two(when.getUTCMonth() + 1)}${two(when.getUTCDate())}${when.getUTCFullYear()}`);
      await page.keyboard.type(`${two(hour)}${two(when.getUTCMinutes())}`);
      await page.keyboard.type(when.getUTCHours() < 12 ? 'AM' : 'PM');
      await sidebar.getByRole('button', { name: 'Schedule' }).click();
      await eventually(() => sidebar.getByText('Scheduled', { exact: true }).count()).toBe(1);
      expect(await publicEntry(id)).toBeUndefined();

      // The server's clock reaches the time; its scheduler publishes what is due.
      panel.t.clock.advance(when.getTime() - panel.t.clock.now().getTime() + 1_000);
      expect(await testJobRunner(panel.t).runDue()).toBeGreaterThanOrEqual(1);
      await page.reload();
      await eventually(() => sidebar.getByText('Published', { exact: true }).count()).toBe(1);
      await page.goto(panel.server.url('/content/stories?status=published'));
      await eventually(() => page.getByRole('row', { name: /Eclipse at noon/ }).count()).toBe(1);
      expect((await publicEntry(id))?.data.title).toBe('Eclipse at noon');
    } finally {
      await context.close();
    }
  });
});

interface Block {
  _type: string;
  style?: string;
  markDefs?: { _key: string; _type: string; href?: string }[];
  children?: { text: string; marks: string[] }[];
}

/** The text of each block, in order. */
function blockTexts(body: unknown[] | undefined): string[] {
  return ((body ?? []) as Block[]).map((block) => (block.children ?? []).map((child) => child.text).join(''));
}

/** A text block as style and spans, each span its text then its marks, a link mark as `link:<href>`. */
function shape(block: Block) {
  const hrefs = new Map((block.markDefs ?? []).map((definition) => [definition._key, `${definition._type}:${definition.href}`]));
  return { style: block.style, spans: (block.children ?? []).map((child) => [child.text, ...child.marks.map((mark) => hrefs.get(mark) ?? mark)]) };
}
