import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { deferredMailer, type Mail } from '../src/auth/mail.ts';
import { createSetupSecret } from '../src/auth/setup.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { deviceWithPasskeys, launchChromium } from './support/browser.ts';
import { api } from './support/content.ts';
import { createTestDatabase } from './support/database.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { freePort } from './support/ports.ts';

/** Signing in lands in the panel (decisions/0042), whose account screen these tests read (decisions/0048). */
async function landInPanelThenOpenAccount(page: Page, base: string): Promise<void> {
  await page.waitForURL(`${base}/_cms/admin/`);
  await page.goto(`${base}/_cms/admin/account`);
}

/**
 * On a loaded machine (three test files at once, each with its browser) a page's answer, and the
 * panel's first load with its scripts compiled, take seconds, not expect.poll's default one.
 */
const slowMachine = { timeout: 20_000 };

/** Whether the account screen says who is signed in, as `who`. */
const says = (page: Page, who: string) => page.getByText(`Signed in as ${who}`, { exact: true }).count();

/** The passkeys the account screen lists, by name. */
const passkeyNames = (page: Page) => page.getByRole('list', { name: 'Passkeys' }).locator('.entry-title').allTextContents();

/**
 * The sign-in pages in a real browser: Debian's chromium driven by playwright-core, with a virtual
 * WebAuthn authenticator (Chrome DevTools Protocol) standing in for the person's device.
 */
let t: TestApp;
let server: ServerType;
let browser: Browser;
let origin: string;
const mails: Mail[] = [];
const mailer = deferredMailer(true, pino({ level: 'silent' }), async (mail) => void mails.push(mail));

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  t = await createTestApp({ PUBLIC_URL: origin }, { withoutAdmin: true, mailer });
  const app = createApp({ config: t.config, db: t.db, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock, mailer });
  server = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t.close();
});

describe('the pages', () => {
  it('are served with the strict CSP, labelled fields and the script from Folio itself', async () => {
    for (const path of ['/_cms/sign-in', '/_cms/setup?secret=x', '/_cms/invitation?token=x', '/_cms/sign-in/link?token=x']) {
      const response = await t.request('GET', path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = String(response.body);
      expect(page).toContain('<html lang="en">');
      expect(page).toContain('<script src="/_cms/assets/sign-in.js" defer></script>');
      expect(page).not.toMatch(/<script>/);
      for (const [, id] of page.matchAll(/<input id="([^"]+)"/g)) expect(page).toContain(`<label for="${id}">`);
    }
    // The account page became a screen of the panel (decisions/0048): its old address leads there.
    const account = await t.request('GET', '/_cms/');
    expect(account.status).toBe(302);
    expect(account.headers.get('location')).toBe('/_cms/admin/account');
    const script = await t.request('GET', '/_cms/assets/sign-in.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(String((await t.request('GET', '/_cms/invitation?token="><script>x</script>')).body)).not.toContain('<script>x');
  });
});

describe('in a browser with a passkey authenticator', () => {
  it('sets up the first admin with a passkey, signs out, signs in with it, and adds a second passkey', async () => {
    const secret = await createSetupSecret(t.db, t.clock);
    const { context, page, swapAuthenticator } = await deviceWithPasskeys(browser);
    try {
      await page.goto(`${origin}/_cms/setup?secret=${secret}`);
      await page.getByLabel('Your name').fill('Ada Lovelace');
      await page.getByLabel('Your email').fill('ada@example.com');
      await page.getByRole('button', { name: 'Create account and passkey' }).click();
      await landInPanelThenOpenAccount(page, origin);
      await expect.poll(() => says(page, 'Ada Lovelace (ada@example.com)'), slowMachine).toBe(1);
      await expect.poll(() => passkeyNames(page), slowMachine).toEqual(['First passkey']);
      expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: true, hasUsers: true });

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${origin}/_cms/sign-in`);
      expect(await context.cookies()).toEqual([]);

      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await landInPanelThenOpenAccount(page, origin);
      await expect.poll(() => says(page, 'Ada Lovelace (ada@example.com)'), slowMachine).toBe(1);
      const [cookie] = await context.cookies();
      expect(cookie).toMatchObject({ name: 'folio_session', httpOnly: true, sameSite: 'Lax' });

      await swapAuthenticator();
      await page.getByLabel('Name of a new passkey').fill('Backup key');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await expect.poll(() => passkeyNames(page), slowMachine).toEqual(['First passkey', 'Backup key']);
      await expect.poll(() => page.getByRole('status').textContent(), slowMachine).toBe('Passkey added.');
      // The new key signs in too.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${origin}/_cms/sign-in`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await landInPanelThenOpenAccount(page, origin);
      await expect.poll(() => says(page, 'Ada Lovelace (ada@example.com)'), slowMachine).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('accepts an invitation: a name, then a passkey, signed in', async () => {
    const inviter = await t.userWithToken(50, ['admin']);
    expect((await t.request('POST', `${api}/auth/invite`, { token: inviter.token, body: { email: 'mary@example.com', role: 30 } })).status).toBe(201);
    await mailer.idle();
    const link = mails.find((mail) => mail.to === 'mary@example.com')!.link;
    const { context, page } = await deviceWithPasskeys(browser);
    try {
      await page.goto(link);
      await expect.poll(() => page.locator('main').textContent(), slowMachine).toContain('mary@example.com');
      await page.getByLabel('Your name').fill('Mary Shelley');
      await page.getByRole('button', { name: 'Join and create a passkey' }).click();
      await landInPanelThenOpenAccount(page, origin);
      await expect.poll(() => says(page, 'Mary Shelley (mary@example.com)'), slowMachine).toBe(1);
      await expect.poll(() => passkeyNames(page), slowMachine).toEqual(['First passkey']);
    } finally {
      await context.close();
    }
  });

  it('signs in with a link by mail', async () => {
    const { context, page } = await deviceWithPasskeys(browser);
    try {
      await page.goto(`${origin}/_cms/sign-in`);
      await page.getByLabel('Or get a sign-in link by email').fill('ada@example.com');
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await expect.poll(() => page.getByRole('status').textContent(), slowMachine).toContain('on its way');
      await mailer.idle();
      const link = mails.filter((mail) => mail.to === 'ada@example.com').at(-1)!.link;
      await page.goto(link);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await landInPanelThenOpenAccount(page, origin);
      await expect.poll(() => says(page, 'Ada Lovelace (ada@example.com)'), slowMachine).toBe(1);
    } finally {
      await context.close();
    }
  });
});

/**
 * `folio serve` as a person starts it: no PUBLIC_URL, the default HOST, a database of its own. Gives
 * the setup link it printed and a way to ask it whether setup is done.
 */
async function startFreshServer() {
  const database = await createTestDatabase();
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-media-'));
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
  const port = await freePort();
  const running = await startServer(loadConfig({ DATABASE_URL: database.url, MEDIA_DIR: mediaDir, PORT: String(port), WPCOM_API_URL: 'http://127.0.0.1:9' }, {}, false), log);
  const printed = lines.map((line) => / at (\S+\/_cms\/setup\?secret=\S+) /.exec(line.msg)?.[1]).find((link) => link !== undefined);
  expect(printed, JSON.stringify(lines)).toBeDefined();
  return {
    setupLink: printed!,
    port,
    status: async () => ((await (await fetch(`http://127.0.0.1:${port}${api}/setup/status`)).json()) as { data: { setupComplete: boolean; hasUsers: boolean } }).data,
    close: async () => {
      await running.close();
      await database.drop();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}

async function fillSetupForm(page: Page): Promise<void> {
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Your email').fill('ada@example.com');
  await page.getByRole('button', { name: 'Create account and passkey' }).click();
}

describe('a fresh server at the default address, in a browser', () => {
  it('prints a setup link that creates the first admin with a passkey and lands signed in', async () => {
    const server = await startFreshServer();
    const { context, page } = await deviceWithPasskeys(browser);
    try {
      expect(server.setupLink).toMatch(new RegExp(`^http://localhost:${server.port}/_cms/setup\\?secret=`));
      await page.goto(server.setupLink);
      await fillSetupForm(page);
      await landInPanelThenOpenAccount(page, `http://localhost:${server.port}`);
      await expect.poll(() => says(page, 'Ada Lovelace (ada@example.com)'), slowMachine).toBe(1);
      await expect.poll(() => passkeyNames(page), slowMachine).toEqual(['First passkey']);
      expect(await server.status()).toEqual({ setupComplete: true, hasUsers: true });
    } finally {
      await context.close();
      await server.close();
    }
  });

  it('creates no admin when the passkey ceremony fails, and the same link then finishes setup', async () => {
    const server = await startFreshServer();
    const atIpAddress = server.setupLink.replace(`//localhost:`, `//127.0.0.1:`);
    const { context, page } = await deviceWithPasskeys(browser);
    // A device whose user verification fails: the browser refuses to create the passkey.
    const unverified = await browser.newContext();
    try {
      // The bound address, which the server printed before: the page says why passkeys fail there, and they do.
      await page.goto(atIpAddress);
      await expect.poll(() => page.locator('.warning').textContent(), slowMachine).toContain('IP address');
      await fillSetupForm(page);
      await expect.poll(() => page.getByRole('status').textContent(), slowMachine).toContain('No passkey was created');
      expect(await server.status()).toEqual({ setupComplete: false, hasUsers: false });

      const unverifiedPage = await unverified.newPage();
      const cdp = await unverified.newCDPSession(unverifiedPage);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: false, automaticPresenceSimulation: true },
      });
      await unverifiedPage.goto(server.setupLink);
      await fillSetupForm(unverifiedPage);
      await expect.poll(() => unverifiedPage.getByRole('status').textContent(), slowMachine).toContain('No passkey was created');
      expect(await server.status()).toEqual({ setupComplete: false, hasUsers: false });

      await page.goto(server.setupLink);
      await fillSetupForm(page);
      await landInPanelThenOpenAccount(page, `http://localhost:${server.port}`);
      await expect.poll(() => says(page, 'Ada Lovelace (ada@example.com)'), slowMachine).toBe(1);
      expect(await server.status()).toEqual({ setupComplete: true, hasUsers: true });
    } finally {
      await unverified.close();
      await context.close();
      await server.close();
    }
  });
});
