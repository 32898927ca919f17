import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { sessionCookieName } from '../src/auth/sessions.ts';
import { builtPanelDir } from '../src/panel/files.ts';
import { deviceWithPasskeys } from './support/browser.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { eventually, expectAccessible as expectPageAccessible, panelSuite } from './support/panel.ts';
import { sessionCookieFor } from './support/sessions.ts';

/**
 * The administration panel (decisions/0042): how the server serves its build (dist/admin/, which the
 * suite's global setup builds when stale), and the panel itself in Debian's chromium driven by
 * playwright-core, found by role and label, with axe-core holding each screen to WCAG 2.1 AA.
 */
const panel = panelSuite();
const entryCount = 300;

beforeAll(async () => {
  await createCollection(panel.t, 'posts', [{ slug: 'title', label: 'Title', type: 'string', required: true }, { slug: 'rank', label: 'Rank', type: 'integer' }], { label: 'Posts', labelSingular: 'Post' });
  // Every third one published, the rest drafts; titles sort as their numbers do.
  for (let n = 1; n <= entryCount; n++) {
    await createEntry(panel.t, 'posts', { data: { title: `Post ${String(n).padStart(3, '0')}`, rank: n }, status: n % 3 === 0 ? 'published' : 'draft' });
  }
}, 120_000);

describe('serving the built panel', () => {
  const indexHtml = () => fs.readFileSync(path.join(builtPanelDir, 'index.html'), 'utf8');
  // The main bundle's script (the page's first one is early.ts's, which starts the first reads).
  const entryScript = () => /<script type="module" crossorigin src="([^"]+\/index-[^"]+)"/.exec(indexHtml())![1]!;

  it('answers a hashed file compressed as the client accepts, cached for good, and 304 for its ETag', async () => {
    const file = entryScript();
    expect(file).toMatch(/^\/_cms\/admin\/assets\/index-[\w-]+\.js$/);
    const original = fs.readFileSync(path.join(builtPanelDir, file.slice('/_cms/admin/'.length)));
    const fetchAs = (acceptEncoding: string | undefined, headers: Record<string, string> = {}) => panel.t.request('GET', file, { headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...headers } });

    const brotli = await fetchAs('gzip, deflate, br');
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.get('vary')).toBe('Accept-Encoding');
    expect(brotli.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(zlib.brotliDecompressSync(brotli.bytes).equals(original)).toBe(true);
    expect(brotli.bytes.length).toBeLessThan(original.length / 2);

    const gzip = await fetchAs('gzip;q=1, br;q=0.5');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(gzip.bytes).equals(original)).toBe(true);

    for (const plain of [await fetchAs(undefined), await fetchAs('identity'), await fetchAs('br;q=0, gzip;q=0')]) {
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.bytes.equals(original)).toBe(true);
    }

    const again = await fetchAs('br', { 'if-none-match': brotli.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    // Each encoding is its own representation: the brotli validator does not match the gzip bytes.
    expect(gzip.headers.get('etag')).not.toBe(brotli.headers.get('etag'));
    expect((await fetchAs('gzip', { 'if-none-match': brotli.headers.get('etag')! })).status).toBe(200);
  });

  it('answers a missing file 404, never the page', async () => {
    for (const missing of ['/_cms/admin/assets/index-missing.js', '/_cms/admin/assets/index-missing.js.br']) {
      const response = await panel.t.request('GET', missing, { headers: { cookie: await sessionCookieFor(panel.t, panel.t.admin.id) } });
      expect(response.status, missing).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('answers any other path of the panel with its page for a session: never cached, under a strict CSP', async () => {
    const cookie = await sessionCookieFor(panel.t, panel.t.admin.id);
    const nonces: string[] = [];
    for (const pagePath of ['/_cms/admin/', '/_cms/admin', '/_cms/admin/content/posts?sort=title&order=asc', '/_cms/admin/no/such/screen']) {
      const response = await panel.t.request('GET', pagePath, { headers: { cookie } });
      expect(response.status, pagePath).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const policy = response.headers.get('content-security-policy')!;
      for (const directive of ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "img-src 'self' data: blob:", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) {
        expect(policy).toContain(directive);
      }
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).not.toContain('unsafe-eval');
      const page = String(response.body);
      // A fresh style nonce per page, in its CSP and its meta element alone (React Aria's own <style>s carry it).
      const nonce = /style-src 'self' 'nonce-([\w+/=]+)'/.exec(policy)![1]!;
      expect(nonce).not.toBe(nonces.at(-1));
      nonces.push(nonce);
      expect(page).toContain(`<meta property="csp-nonce" content="${nonce}">`);
      expect(page).toContain('<div id="root"></div>');
      // No inline script: every script is a file of Folio's own.
      for (const [script] of page.matchAll(/<script[^>]*>/g)) expect(script).toMatch(/ src="\/_cms\/admin\/assets\//);
    }
  });

  it('sends a visit without a session to sign in, to come back to the very page asked for', async () => {
    const response = await panel.t.request('GET', '/_cms/admin/content/posts?status=draft');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/_cms/sign-in?return=${encodeURIComponent('/_cms/admin/content/posts?status=draft')}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('says to run npm run build when there is no build (503)', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-no-panel-'));
    try {
      const app = createApp({ config: panel.t.config, db: panel.t.db, storage: panel.t.storage, log: pino({ level: 'silent' }), clock: panel.t.clock, panelDir: empty });
      const cookie = await sessionCookieFor(panel.t, panel.t.admin.id);
      const response = await app.request('/_cms/admin/content/posts', { headers: { cookie } });
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await response.text();
      expect(page).toContain('The panel is not built');
      expect(page).toContain('<code>npm run build</code>');
      expect((await app.request('/_cms/admin/assets/index.js')).status).toBe(404);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('in a browser', () => {
  let context: BrowserContext;
  let page: Page;
  let author: { user: { id: string } };
  const cspViolations: string[] = [];
  const expectAccessible = (screen: string) => expectPageAccessible(page, screen);

  // The first cell of a row is its selection checkbox (decisions/0047), the title the second.
  const rowTitles = () => page.locator('[role=rowgroup].entry-table-body [role=row] [role=cell]:nth-child(2)').allTextContents();

  beforeAll(async () => {
    ({ context, page } = await deviceWithPasskeys(panel.browser));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    author = await panel.t.userWithToken(40, ['content:read', 'content:write'], 'ada@example.com');
  }, 60_000);
  afterAll(async () => {
    await context?.close();
  });

  it('sends an unauthenticated visit of a list to sign in with a passkey, then back to that list', { timeout: 60_000 }, async () => {
    // A passkey for the author, added from the account page while a session exists.
    const [name, value] = (await sessionCookieFor(panel.t, author.user.id)).split('=') as [string, string];
    expect(name).toBe(sessionCookieName(panel.t.config));
    await context.addCookies([{ name, value, url: panel.server.origin }]);
    await page.goto(`${panel.server.origin}/_cms/`);
    await page.getByLabel('Name of a new passkey').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await eventually(() => page.getByRole('status').textContent()).toBe('Passkey added.');
    await context.clearCookies();

    await page.goto(`${panel.server.origin}/_cms/admin/content/posts`);
    await page.waitForURL(`${panel.server.origin}/_cms/sign-in?return=${encodeURIComponent('/_cms/admin/content/posts')}`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${panel.server.origin}/_cms/admin/content/posts`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Posts');
    await eventually(async () => (await rowTitles()).length).toBeGreaterThan(5);
    await expectAccessible('content list');
  });

  it('shows counts per collection and my drafts on the dashboard', { timeout: 60_000 }, async () => {
    const created = await page.evaluate(async (path) => {
      const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: 'My own draft', rank: 0 } }) });
      return response.status;
    }, `${api}/content/posts`);
    expect(created).toBe(201);
    await page.goto(`${panel.server.origin}/_cms/admin/`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    const counts = page.getByRole('table').getByRole('row', { name: /^Posts/ }).getByRole('cell');
    // Draft, published, scheduled, trash.
    await eventually(() => counts.allTextContents()).toEqual([String(entryCount - entryCount / 3 + 1), String(entryCount / 3), '0', '0']);
    await eventually(() => page.getByRole('region', { name: 'My drafts' }).textContent()).toContain('My own draft');
    await eventually(() => page.getByRole('region', { name: 'Recent edits' }).textContent()).toContain('My own draft');
    // The navigation names only screens that exist, and the collections this role writes.
    const navigation = page.getByRole('navigation', { name: 'Main' });
    expect(await navigation.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Media', 'Posts', 'Taxonomies', 'Menus', 'Sections', 'Widget areas', 'Account']);
    await expectAccessible('dashboard');
  });

  it('lists 300 entries in a virtualized table that loads the next page as it scrolls', { timeout: 60_000 }, async () => {
    await page.goto(`${panel.server.origin}/_cms/admin/content/posts?sort=rank&order=asc`);
    await eventually(async () => (await rowTitles())[0]).toBe('My own draft');
    const scroller = page.getByRole('region', { name: 'Posts: entries' });
    await eventually(async () => {
      await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      return (await rowTitles()).at(-1);
    }).toBe(`Post ${entryCount}`);
    // Every entry was loaded (three pages), yet only those in view are in the document.
    expect(await scroller.evaluate((element) => element.scrollHeight)).toBeGreaterThan(entryCount * 40);
    expect((await rowTitles()).length).toBeLessThan(60);
    await expectAccessible('scrolled content list');
  });

  it('asks for the first screen\'s reads once, from the page\'s first script, before the main bundle runs', { timeout: 60_000 }, async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const reads: { path: string; by: string }[] = [];
    cdp.on('Network.requestWillBeSent', ({ request, initiator }) => {
      const url = new URL(request.url);
      if (url.pathname.startsWith(api)) reads.push({ path: url.pathname + url.search, by: initiator.stack?.callFrames[0]?.url ?? initiator.url ?? '' });
    });
    const firstScreen = async (address: string) => {
      reads.length = 0;
      await page.goto(`${panel.server.origin}${address}`);
      await eventually(async () => (await rowTitles()).length).toBeGreaterThan(5);
      return reads;
    };
    const listPage = `${api}/content/posts?orderBy=updatedAt&order=desc&limit=100`;
    const early = await firstScreen('/_cms/admin/content/posts');
    for (const path of [`${api}/auth/me`, `${api}/content`, listPage]) {
      // Once (the panel took the early answer rather than asking again), and by early.ts's chunk.
      expect(early.filter((read) => read.path === path)).toEqual([{ path, by: expect.stringMatching(/\/_cms\/admin\/assets\/early-[\w-]+\.js$/) }]);
    }
    // A list with a filter in its address is the screen's own to ask for; the shell's reads still come early.
    const filtered = await firstScreen('/_cms/admin/content/posts?status=published');
    expect(filtered.filter((read) => read.path.startsWith(`${api}/content/posts?`))).toEqual([{ path: `${api}/content/posts?status=published&orderBy=updatedAt&order=desc&limit=100`, by: expect.not.stringMatching(/\/early-/) }]);
    expect(filtered.filter((read) => read.path === `${api}/auth/me`)).toHaveLength(1);
    await cdp.detach();
  });

  it('sorts by a column and filters by status, both in the URL', { timeout: 60_000 }, async () => {
    await page.goto(`${panel.server.origin}/_cms/admin/content/posts`);
    await page.getByRole('button', { name: 'Sort by Title' }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'title' && url.searchParams.get('order') === 'asc');
    await eventually(async () => (await rowTitles()).slice(0, 2)).toEqual(['My own draft', 'Post 001']);
    await page.getByRole('button', { name: 'Sort by Title' }).click();
    await page.waitForURL((url) => url.searchParams.get('order') === 'desc');
    await eventually(async () => (await rowTitles())[0]).toBe('Post 300');
    expect(await page.getByRole('columnheader', { name: 'Sort by Title' }).getAttribute('aria-sort')).toBe('descending');

    const statusFilter = page.getByRole('radiogroup', { name: 'Status' });
    expect(await statusFilter.getByRole('radio', { name: 'All' }).isChecked()).toBe(true);
    await statusFilter.getByText('Published').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'published' && url.searchParams.get('sort') === 'title');
    await eventually(async () => (await rowTitles()).slice(0, 2)).toEqual(['Post 300', 'Post 297']);
    const statuses = await page.locator('[role=rowgroup].entry-table-body [role=row] [role=cell]:nth-child(3)').allTextContents();
    expect(new Set(statuses)).toEqual(new Set(['Published']));
    await expectAccessible('filtered content list');

    // The URL alone rebuilds the view.
    await page.reload();
    await eventually(async () => (await rowTitles())[0]).toBe('Post 300');
    expect(await page.getByRole('radiogroup', { name: 'Status' }).getByRole('radio', { name: 'Published' }).isChecked()).toBe(true);

    // The trash: its own list, in one order (no sort to offer), when each entry was deleted.
    const [gone] = expectSuccess(await panel.t.request('GET', `${api}/content/posts?orderBy=title&order=asc&limit=1&status=published`, { token: panel.t.adminToken })).items;
    expectSuccess(await panel.t.request('DELETE', `${api}/content/posts/${gone.id}`, { token: panel.t.adminToken }));
    await page.getByRole('radiogroup', { name: 'Status' }).getByText('Trash').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'trash');
    await eventually(() => rowTitles()).toEqual(['Post 003']);
    expect(await page.getByRole('button', { name: 'Sort by Title' }).count()).toBe(0);
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['', 'Title', 'Status', 'Rank', 'Deleted']);
    await expectAccessible('trash');

    // Columns: chosen from the fields and dates, kept in the URL too.
    await statusFilter.getByText('All').click();
    await page.waitForURL((url) => !url.searchParams.has('status'));
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    const choices = page.getByRole('group', { name: 'Columns' });
    await choices.getByText('Rank').click();
    await choices.getByText('Created').click();
    await page.waitForURL((url) => url.searchParams.get('columns') === 'status,updatedAt,createdAt');
    const headings = async () => (await page.getByRole('columnheader').allTextContents()).map((text) => text.replace(/[▲▼]/g, ''));
    await eventually(headings).toEqual(['', 'Title', 'Status', 'Updated', 'Created']);
    await expectAccessible('columns chosen');
    await page.reload();
    await eventually(headings).toEqual(['', 'Title', 'Status', 'Updated', 'Created']);
    expect(cspViolations).toEqual([]);
  });

  it('shows a Subscriber no collection, saying their role gives no access to content', { timeout: 60_000 }, async () => {
    const subscriber = await panel.t.userWithToken(10, ['content:read']);
    const [name, value] = (await sessionCookieFor(panel.t, subscriber.user.id)).split('=') as [string, string];
    const reader = await panel.browser.newContext();
    try {
      await reader.addCookies([{ name, value, url: panel.server.origin }]);
      const readerPage = await reader.newPage();
      await readerPage.goto(`${panel.server.origin}/_cms/admin/`);
      await eventually(() => readerPage.getByRole('main').textContent()).toContain('does not give you access to content');
      expect(await readerPage.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual(['Dashboard', 'Account']);
    } finally {
      await reader.close();
    }
  });
});
