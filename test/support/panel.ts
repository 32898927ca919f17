import fs from 'node:fs';
import { createRequire } from 'node:module';
import { serve, type ServerType } from '@hono/node-server';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp } from '../../src/app.ts';
import type { Mailer } from '../../src/auth/mail.ts';
import { loadPlugins } from '../../src/plugins/loader.ts';
import { roles } from '../../src/core/roles.ts';
import { launchChromium } from './browser.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { freePort } from './ports.ts';
import { sessionCookieFor } from './sessions.ts';

/**
 * What the panel's browser suites share (decisions/0042): Folio listening on a free port, Debian's
 * chromium, a signed-in browser profile per user, and axe-core holding a screen to WCAG 2.1 AA.
 */

/** What the page shows once it settles; two cores shared with other suites can take seconds, not vitest's default one. */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

/**
 * Selects a tree editor's row as a person does, by clicking its label, and answers the toolbar that
 * names it. A click that the toolbar does not answer within a few seconds is made again, as a person
 * would, and said on stderr with what the toolbar named instead: a click made while the tree
 * re-renders can be lost (decisions/0064), and the log says when it happened.
 */
export async function selectTreeRow(page: Page, row: Locator, name: string): Promise<Locator> {
  const toolbar = page.getByRole('toolbar', { name: `Selected: ${name}` });
  for (let attempt = 1; ; attempt++) {
    await row.locator('.tree-node-label').click();
    try {
      await toolbar.waitFor({ timeout: 5_000 });
      return toolbar;
    } catch (error) {
      const named = await page.getByRole('toolbar').first().getAttribute('aria-label');
      console.error(`selectTreeRow: click ${attempt} on ${name} did not select it; the toolbar says ${JSON.stringify(named)}`);
      if (attempt === 3) throw error;
    }
  }
}

/**
 * Drags the row `from` onto the row `to` with the mouse until `moved` says the move is stored (3 tries,
 * 5 s each), saying on stderr when a drag did not take: like a click, a drag begun while the tree
 * re-renders can be lost (decisions/0064), and the log says when it happened.
 */
export async function dragTreeRow(from: Locator, to: Locator, name: string, moved: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    // As a hand does it: press, move onto the target in steps, pause over it, release. The browser
    // starts a drag only after the pointer has moved while pressed, and a loaded machine needs the steps.
    const page = from.page();
    await from.locator('.tree-node-label').hover();
    await page.mouse.down();
    const box = (await to.locator('.tree-node-label').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 12 });
    await to.locator('.tree-node-label').hover();
    await page.mouse.up();
    const deadline = Date.now() + 5_000;
    while (!(await moved())) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (await moved()) return;
    console.error(`dragTreeRow: drag ${attempt} of ${name} did not take`);
    if (attempt === 3) throw new Error(`three drags of ${name} did not take`);
  }
}

export interface PanelServer {
  t: TestApp;
  origin: string;
  /** The panel's address of a screen path such as `/content/posts`. */
  url: (screen: string) => string;
  close: () => Promise<void>;
}

/** The real app on a free port of localhost (WebAuthn and cookies need a name, not an address). */
export async function startPanelServer(env: Record<string, string> = {}, options: { plugins?: readonly string[]; mailer?: Mailer } = {}): Promise<PanelServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  // Shipped plugins by id (plugins/loader.ts), served and called as PLUGINS would have them.
  const plugins = options.plugins && (await loadPlugins(options.plugins, { hookTimeoutMs: 1000 }));
  const t = await createTestApp({ PUBLIC_URL: origin, ...env }, { plugins, mailer: options.mailer });
  const app = createApp({ config: t.config, db: t.db, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock, plugins, mailer: options.mailer });
  const server = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  return {
    t,
    origin,
    url: (screen) => `${origin}/_cms/admin${screen}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

/** What a suite of panel journeys shares: the server with the built panel, its test app, and chromium. */
export interface PanelSuite {
  server: PanelServer;
  t: TestApp;
  browser: Browser;
}

/** Starts the server and the browser before the suite's tests and stops them after; read its fields inside the tests. */
export function panelSuite(options: { plugins?: readonly string[]; env?: Record<string, string>; mailer?: Mailer } = {}): PanelSuite {
  const suite = {} as PanelSuite;
  beforeAll(async () => {
    suite.server = await startPanelServer(options.env, options);
    suite.t = suite.server.t;
    suite.browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/** A browser profile signed in as `userId` (a session cookie, as signing in leaves), with one page, and the CSP violations it reports. */
export async function signedInPage(browser: Browser, server: PanelServer, userId: string, contextOptions: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page; cspViolations: string[] }> {
  const context = await browser.newContext(contextOptions);
  const [name, value] = (await sessionCookieFor(server.t, userId)).split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.origin }]);
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return { context, page, cspViolations };
}

export { launchChromium };

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the screen as it is: no WCAG 2.1 A or AA violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script> would be refused).
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // In the page (the suites' TypeScript has no DOM types): axe-core's global and the document.
    const { axe, document } = globalThis as unknown as { axe: { run: (context: unknown, options: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> }; document: unknown };
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
  expect(violations, screen).toEqual([]);
}

/**
 * An admin's screen as an Editor finds it: no link to it in the navigation, and at its address the
 * sentence saying who manages it instead of its form (`action`, a button the screen would offer).
 */
export async function expectAdminsOnly(browser: Browser, server: PanelServer, screen: { path: string; link: string; says: string; action: string }): Promise<void> {
  const { user } = await server.t.userWithToken(roles.editor, ['content:read']);
  const { context, page } = await signedInPage(browser, server, user.id);
  try {
    await page.goto(server.url(screen.path));
    await eventually(() => page.getByRole('main').textContent()).toContain(screen.says);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen.link }).count()).toBe(0);
    expect(await page.getByRole('button', { name: screen.action }).count()).toBe(0);
  } finally {
    await context.close();
  }
}

/** The text of what describes a field (aria-describedby): its hint and its error, as a screen reader reads them. */
export const describedBy = (field: Locator) =>
  field.evaluate((input) => {
    const element = input as unknown as { getAttribute(name: string): string | null; ownerDocument: { getElementById(id: string): { textContent: string | null } | null } };
    return (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' ');
  });

/** The titles of a content list's rendered rows, in order (the first cell of a row is its selection checkbox). */
export function listRowTitles(page: Page): Promise<string[]> {
  return page.locator('[role=rowgroup].entry-table-body [role=row] [role=cell]:nth-child(2)').allTextContents();
}

/**
 * Ticks or unticks a React Aria checkbox by its name as a person does, clicking what they see: its
 * input is visually hidden inside the label, which takes the click.
 */
export async function clickCheckbox(page: Page, name: string): Promise<void> {
  await page.locator('label').filter({ has: page.getByRole('checkbox', { name, exact: true }) }).click();
}

/**
 * Waits for the frames after a Portable Text dialog closes: React Aria gives focus back in one, the
 * editor puts its selection back in the next (PortableTextInput's close).
 */
export function framesAfterClosing(page: Page): Promise<void> {
  return page.evaluate(() => {
    const frame = (globalThis as unknown as { requestAnimationFrame: (callback: () => void) => void }).requestAnimationFrame;
    return new Promise<void>((resolve) => frame(() => frame(() => frame(() => resolve()))));
  });
}

/** Presses Tab until `target` has the focus, as a keyboard user moves through a page; fails after `limit` presses. */
export async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if ((await target.count()) === 1 && (await hasFocus(target))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)} in ${limit} presses`);
}

/** Whether the element has the focus of its page. */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);
}
