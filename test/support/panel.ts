import fs from 'node:fs';
import { createRequire } from 'node:module';
import { serve, type ServerType } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import pino from 'pino';
import { expect } from 'vitest';
import { createApp } from '../../src/app.ts';
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

export interface PanelServer {
  t: TestApp;
  origin: string;
  /** The panel's address of a screen path such as `/content/posts`. */
  url: (screen: string) => string;
  close: () => Promise<void>;
}

/** The real app on a free port of localhost (WebAuthn and cookies need a name, not an address). */
export async function startPanelServer(env: Record<string, string> = {}): Promise<PanelServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const t = await createTestApp({ PUBLIC_URL: origin, ...env });
  const app = createApp({ config: t.config, db: t.db, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock });
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

/** A browser profile signed in as `userId` (a session cookie, as signing in leaves), with one page, and the CSP violations it reports. */
export async function signedInPage(browser: Browser, server: PanelServer, userId: string): Promise<{ context: BrowserContext; page: Page; cspViolations: string[] }> {
  const context = await browser.newContext();
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
