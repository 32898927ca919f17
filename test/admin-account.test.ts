import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordConsent } from '../src/oauth/grants.ts';
import { deviceWithPasskeys } from './support/browser.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { eventually, expectAccessible, panelSuite, signedInPage } from './support/panel.ts';
import { sessionCookieFor } from './support/sessions.ts';

/**
 * The panel's account screen and command palette (decisions/0048), in Debian's chromium: passkeys
 * made by a virtual authenticator, connected apps, signing out, and the palette driven by the
 * keyboard alone; what the screens did is read back from the API.
 */
const panel = panelSuite();
let eclipseId: string;

beforeAll(async () => {
  await createCollection(panel.t, 'posts', [{ slug: 'title', label: 'Title', type: 'string', required: true, searchable: true }], { label: 'Posts', labelSingular: 'Post', supports: ['drafts', 'search'] });
  await createCollection(panel.t, 'recipes', [{ slug: 'title', label: 'Title', type: 'string', required: true, searchable: true }], { label: 'Recipes', labelSingular: 'Recipe', supports: ['search'] });
  eclipseId = (await createEntry(panel.t, 'posts', { data: { title: 'Lunar eclipse tonight' }, status: 'published' })).id;
  await createEntry(panel.t, 'posts', { data: { title: 'Solar panels on the roof' }, status: 'published' });
}, 60_000);

/** A person of `role` signed in on a browser profile whose device can hold passkeys. */
async function personOnDevice(role: number): Promise<{ context: BrowserContext; page: Page; swapAuthenticator: () => Promise<void>; userId: string; cookie: string }> {
  const { user } = await panel.t.userWithToken(role, ['content:read']);
  const device = await deviceWithPasskeys(panel.browser);
  const cookie = await sessionCookieFor(panel.t, user.id);
  const [name, value] = cookie.split('=') as [string, string];
  await device.context.addCookies([{ name, value, url: panel.server.origin }]);
  return { ...device, userId: user.id, cookie };
}

const passkeyNames = (page: Page) => page.getByRole('list', { name: 'Passkeys' }).locator('.entry-title').allTextContents();

describe('the account screen', () => {
  it('adds, renames and deletes passkeys, each change read back from the API', async () => {
    const { context, page, swapAuthenticator, cookie } = await personOnDevice(30);
    const ownPasskeys = async () => (expectSuccess(await panel.t.request('GET', `${api}/auth/passkey`, { headers: { cookie } })) as { items: { name: string }[] }).items.map((item) => item.name);
    try {
      await page.goto(panel.server.url('/account'));
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Your account');
      await eventually(() => page.getByText('You have no passkey').count()).toBe(1);
      await expectAccessible(page, 'account');

      await page.getByLabel('Name of a new passkey').fill('Laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await eventually(() => page.getByRole('status').textContent()).toBe('Passkey added.');
      await eventually(() => passkeyNames(page)).toEqual(['Laptop']);
      // One authenticator holds one passkey of an account: a second device adds the next.
      await swapAuthenticator();
      await page.getByLabel('Name of a new passkey').fill('Backup key');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await eventually(() => passkeyNames(page)).toEqual(['Laptop', 'Backup key']);
      expect(await ownPasskeys()).toEqual(['Laptop', 'Backup key']);

      await page.getByRole('button', { name: 'Rename Laptop' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename the passkey Laptop' });
      await eventually(() => rename.isVisible()).toBe(true);
      await expectAccessible(page, 'rename dialog');
      await rename.getByLabel('New name').fill('Work laptop');
      await rename.getByRole('button', { name: 'Save' }).click();
      await eventually(() => passkeyNames(page)).toEqual(['Work laptop', 'Backup key']);
      await eventually(() => page.getByRole('status').textContent()).toBe('The passkey is now called Work laptop.');
      // The dialog gave focus back to the button that opened it.
      await eventually(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } } }).document.activeElement.getAttribute('aria-label'))).toBe('Rename Work laptop');

      await page.getByRole('button', { name: 'Delete Backup key' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete the passkey Backup key?' });
      await eventually(() => confirm.isVisible()).toBe(true);
      await expectAccessible(page, 'delete dialog');
      await confirm.getByRole('button', { name: 'Delete passkey' }).click();
      await eventually(() => passkeyNames(page)).toEqual(['Work laptop']);
      expect(await ownPasskeys()).toEqual(['Work laptop']);
    } finally {
      await context.close();
    }
  });

  it('disconnects a connected app, whose grant is then gone from the API', async () => {
    const { context, page, userId, cookie } = await personOnDevice(30);
    const registered = await fetch(`${panel.server.origin}${api}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Notebook app', redirect_uris: ['http://127.0.0.1:9999/callback'] }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    // What the consent page records when the person allows the app.
    await recordConsent(panel.t.db, userId, clientId, ['content:read'], new Date());
    const grants = async () => (expectSuccess(await panel.t.request('GET', `${api}/auth/grants`, { headers: { cookie } })) as { items: { clientName: string }[] }).items;
    try {
      expect((await grants()).map((grant) => grant.clientName)).toEqual(['Notebook app']);
      await page.goto(panel.server.url('/account'));
      const apps = page.getByRole('list', { name: 'Connected apps' });
      await eventually(() => apps.locator('.entry-title').allTextContents()).toEqual(['Notebook app']);
      await page.getByRole('button', { name: 'Disconnect Notebook app' }).click();
      await eventually(() => page.getByRole('status').textContent()).toBe('Notebook app is disconnected.');
      await eventually(() => page.getByText('No app is connected.').count()).toBe(1);
      expect(await grants()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs out to the sign-in page, the session ended', async () => {
    const { context, page, cookie } = await personOnDevice(10);
    try {
      // The server's old account address sends to the panel's screen; a Subscriber has an account too.
      await page.goto(`${panel.server.origin}/_cms/`);
      await page.waitForURL(panel.server.url('/account'));
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${panel.server.origin}/_cms/sign-in`);
      expect(await context.cookies()).toEqual([]);
      expect((await panel.t.request('GET', `${api}/auth/me`, { headers: { cookie } })).status).toBe(401);
    } finally {
      await context.close();
    }
  });
});

/** Presses ArrowDown until the palette's option named `name` is the one Enter would take. */
async function arrowTo(page: Page, name: string): Promise<void> {
  const option = page.getByRole('option', { name });
  await eventually(() => option.count()).toBe(1);
  for (let presses = 0; presses < 20 && (await option.getAttribute('data-focused')) === null; presses++) await page.keyboard.press('ArrowDown');
  expect(await option.getAttribute('data-focused')).toBe('true');
}

describe('the command palette', () => {
  it('opens with Ctrl-K, jumps to a collection and to an entry by its title, and Escape gives the focus back', async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    const palette = page.getByRole('dialog', { name: 'Go to a screen, a collection or an entry' });
    try {
      await page.goto(panel.server.url('/'));
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');

      await page.keyboard.press('Control+k');
      await eventually(() => palette.isVisible()).toBe(true);
      await page.keyboard.type('recip');
      await arrowTo(page, 'Recipes: all entries');
      await expectAccessible(page, 'command palette');
      await page.keyboard.press('Enter');
      await page.waitForURL(panel.server.url('/content/recipes'));
      await eventually(() => palette.count()).toBe(0);

      await page.keyboard.press('Control+k');
      await eventually(() => palette.isVisible()).toBe(true);
      await page.keyboard.type('lunar ecl');
      await arrowTo(page, 'Lunar eclipse tonight');
      await page.keyboard.press('Enter');
      await page.waitForURL(panel.server.url(`/content/posts/${eclipseId}`));

      // Escape closes it and the focus is back where it was when it opened.
      await page.goto(panel.server.url('/'));
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
      await page.getByRole('link', { name: 'Account' }).focus();
      await page.keyboard.press('Control+k');
      await eventually(() => palette.isVisible()).toBe(true);
      await page.keyboard.type('account');
      await page.keyboard.press('Escape');
      await eventually(() => palette.count()).toBe(0);
      await eventually(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent)).toBe('Account');
      expect(page.url()).toBe(panel.server.url('/'));
    } finally {
      await context.close();
    }
  });
});

describe("the editor's terms, bylines and translations panels", () => {
  it('chooses terms with the searchable combobox, credits a byline and starts a translation, each read back from the API', async () => {
    expectCreated(await panel.t.request('POST', `${api}/taxonomies`, { token: panel.t.adminToken, body: { name: 'tags', label: 'Tags', labelSingular: 'Tag', collections: ['posts'] } }));
    for (const [slug, label] of [['astronomy', 'Astronomy'], ['weather', 'Weather'], ['cooking', 'Cooking']]) {
      expectCreated(await panel.t.request('POST', `${api}/taxonomies/tags/terms`, { token: panel.t.adminToken, body: { slug, label } }));
    }
    const byline = (expectCreated(await panel.t.request('POST', `${api}/bylines`, { token: panel.t.adminToken, body: { displayName: 'Grace Hopper' } })) as { item: { id: string } }).item;
    expectSuccess(await panel.t.request('POST', `${api}/settings`, { token: panel.t.adminToken, body: { locales: ['en', 'fr'] } }));
    const termsOfEntry = async () => (expectSuccess(await panel.t.request('GET', `${api}/content/posts/${eclipseId}/terms/tags`, { token: panel.t.adminToken })) as { items: { label: string }[] }).items.map((term) => term.label);
    const entry = async (id: string) => (expectSuccess(await panel.t.request('GET', `${api}/content/posts/${id}`, { token: panel.t.adminToken })) as { item: { bylines?: string[]; locale: string; translationGroup: string } }).item;

    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url(`/content/posts/${eclipseId}`));
      const tags = page.getByRole('combobox', { name: 'Add a Tag' });
      await eventually(() => tags.count()).toBe(1);
      await expectAccessible(page, 'editor with its panels');

      // Keyboard only: type part of the name, arrow to the term, Enter picks it.
      await tags.fill('astro');
      await page.keyboard.press('ArrowDown');
      await eventually(() => page.getByRole('option', { name: 'Astronomy' }).getAttribute('data-focused')).toBe('true');
      await page.keyboard.press('Enter');
      await eventually(() => termsOfEntry()).toEqual(['Astronomy']);
      await tags.fill('wea');
      await page.getByRole('option', { name: 'Weather' }).click();
      await eventually(() => termsOfEntry()).toEqual(['Astronomy', 'Weather']);
      // The combobox keeps the focus and its list open for the next pick (the page behind hidden from assistive technology) until Escape.
      await page.keyboard.press('Escape');
      await eventually(() => page.getByRole('listbox').count()).toBe(0);
      await page.getByRole('button', { name: 'Remove Weather' }).click();
      await eventually(() => termsOfEntry()).toEqual(['Astronomy']);
      await eventually(() => page.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).toEqual(['AstronomyRemove']);

      const credit = page.getByRole('combobox', { name: 'Credit a byline' });
      await credit.fill('grace');
      await page.getByRole('option', { name: 'Grace Hopper' }).click();
      await eventually(async () => (await entry(eclipseId)).bylines).toEqual([byline.id]);
      await page.keyboard.press('Escape');
      await eventually(() => page.getByRole('listbox').count()).toBe(0);
      await eventually(() => page.getByRole('list', { name: 'Bylines' }).getByRole('listitem').allTextContents()).toEqual(['Grace HopperRemove']);
      await expectAccessible(page, 'editor with terms and a byline');

      await page.getByRole('button', { name: 'Translate into fr' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/_cms/admin/content/posts/') && !url.pathname.endsWith(eclipseId));
      const translationId = page.url().split('/').at(-1)!;
      const translation = await entry(translationId);
      expect(translation.locale).toBe('fr');
      expect(translation.translationGroup).toBe((await entry(eclipseId)).translationGroup);
      // The translation's panel links back to the source.
      await page.getByRole('link', { name: 'Open the en version' }).click();
      await page.waitForURL(panel.server.url(`/content/posts/${eclipseId}`));
    } finally {
      await context.close();
    }
  }, 120_000);
});
