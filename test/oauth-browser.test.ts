import type { Browser, Page } from 'playwright-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferredMailer, type Mail } from '../src/auth/mail.ts';
import { deviceWithPasskeys, launchChromium } from './support/browser.ts';
import { clientRedirectUrl, connectWithOAuth, TestOAuthProvider } from './support/mcp-oauth.ts';
import { signedInUser, startOAuthServer, type OAuthServer } from './support/oauth.ts';
import { sessionCookieName } from '../src/auth/sessions.ts';

/**
 * The consent page in a real browser: the MCP SDK client opens the authorization URL in chromium,
 * where a person who is not signed in signs in with their passkey, comes back to the consent page
 * and clicks Allow (or Deny); the client then works with the tokens, until the person disconnects
 * it on their account page.
 */
let server: OAuthServer;
let browser: Browser;
/** A page's script answers within this, even on a loaded machine (polled, not waited). */
const slowMachine = { timeout: 15_000 };
/** The sign-in mails the server sent, as a mail server would receive them. */
const mails: Mail[] = [];
const mailer = deferredMailer(true, pino({ level: 'silent' }), async (mail) => void mails.push(mail));

beforeAll(async () => {
  server = await startOAuthServer({}, 'localhost', { mailer });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A person with a passkey on this browser's authenticator, signed out. */
async function personWithPasskey(role: number): Promise<Page> {
  const { context, page } = await deviceWithPasskeys(browser);
  const user = await signedInUser(server.t, role);
  const [name, value] = user.cookie.split('=') as [string, string];
  expect(name).toBe(sessionCookieName(server.t.config));
  await context.addCookies([{ name, value, url: server.origin }]);
  // The account screen of the panel (decisions/0048), where the old account address leads.
  await page.goto(`${server.origin}/_cms/`);
  await expect.poll(() => page.getByText('No app is connected.').count(), slowMachine).toBe(1);
  await page.getByLabel('Name of a new passkey').fill('Laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect.poll(() => page.getByRole('status').textContent(), slowMachine).toBe('Passkey added.');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${server.origin}/_cms/sign-in`);
  // The client's redirect URI: where the browser lands with the answer (a native app would be listening).
  await context.route(`${clientRedirectUrl}**`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' }));
  return page;
}

/** Opens the authorization URL, signs in with the passkey, and answers the consent page with `button`. */
function inBrowser(page: Page, button: 'Allow' | 'Deny', seen: { clientName?: string; scopes?: string[]; looks?: string[] }) {
  return async (authorizationUrl: URL): Promise<URL> => {
    await page.goto(authorizationUrl.href);
    await page.waitForURL((url) => url.pathname === '/_cms/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/_cms/oauth/authorize');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), slowMachine).toBe('Connect an app');
    seen.clientName = (await page.locator('#client-name').textContent()) ?? undefined;
    seen.scopes = await page.locator('#scopes code').allTextContents();
    // How each answer looks: the two must not be mistaken for each other (issue 29, item 10).
    // Run in the page, whose global is the window (the test's own types know no DOM): the button's computed colours.
    type Window = { getComputedStyle(element: unknown): { backgroundColor: string; color: string } };
    const colours = (element: unknown) => {
      const style = (globalThis as unknown as Window).getComputedStyle(element);
      return `${style.backgroundColor} ${style.color}`;
    };
    seen.looks = await Promise.all(['Allow', 'Deny'].map((name) => page.getByRole('button', { name }).evaluate(colours)));
    await page.getByRole('button', { name: button }).click();
    await page.waitForURL((url) => url.href.startsWith(clientRedirectUrl));
    return new URL(page.url());
  };
}

describe('the consent page in chromium', () => {
  it('signs the person in, comes back, and Allow connects the MCP client', async () => {
    const page = await personWithPasskey(30);
    const seen: { clientName?: string; scopes?: string[]; looks?: string[] } = {};
    const provider = new TestOAuthProvider(inBrowser(page, 'Allow', seen));
    const client = await connectWithOAuth(server.mcpUrl, server.issuer, provider);
    try {
      expect(seen.clientName).toBe('SDK client');
      expect(new Set(seen.looks).size).toBe(2);
      // An author: every scope was asked for, the page offers what the role allows.
      expect(seen.scopes).toEqual(['content:read', 'content:write', 'media:read', 'media:write']);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      const result = await client.callTool({ name: 'taxonomy_list', arguments: {} });
      expect(result.isError).toBeFalsy();
      // The account screen lists the app; Disconnect ends its tokens at once.
      await page.goto(`${server.origin}/_cms/admin/account`);
      const apps = page.getByRole('list', { name: 'Connected apps' });
      await expect.poll(() => apps.locator('.entry-title').allTextContents(), slowMachine).toEqual(['SDK client']);
      expect(await apps.locator('.entry-meta').textContent()).toContain('may use content:read, content:write, media:read, media:write');
      await page.getByRole('button', { name: 'Disconnect SDK client' }).click();
      await expect.poll(() => page.getByRole('status').textContent(), slowMachine).toBe('SDK client is disconnected.');
      await expect.poll(() => page.getByText('No app is connected.').count(), slowMachine).toBe(1);
      const refused = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(refused.status).toBe(401);
    } finally {
      await client.close();
      await page.context().close();
    }
  });

  it('Deny sends the browser back with access_denied and grants nothing', async () => {
    const page = await personWithPasskey(30);
    const provider = new TestOAuthProvider(inBrowser(page, 'Deny', {}));
    try {
      await expect(connectWithOAuth(server.mcpUrl, server.issuer, provider)).rejects.toThrow();
      expect(provider.response!.searchParams.get('error')).toBe('access_denied');
      expect(provider.response!.searchParams.get('iss')).toBe(server.issuer);
      expect(provider.saved).toBeUndefined();
    } finally {
      await page.context().close();
    }
  });

  it('brings a person without a passkey, signing in by a mailed link, back to the consent they came from', async () => {
    // As `folio admin create` makes them: an account with no passkey, so the link by mail is the way in.
    const { user } = await server.t.userWithToken(30, ['content:read']);
    const context = await browser.newContext();
    const page = await context.newPage();
    await context.route(`${clientRedirectUrl}**`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' }));
    const seen: { path?: string; mail?: Mail } = {};
    const provider = new TestOAuthProvider(async (authorizationUrl) => {
      await page.goto(authorizationUrl.href);
      await page.waitForURL((url) => url.pathname === '/_cms/sign-in');
      await page.getByLabel('Or get a sign-in link by email').fill(user.email);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await expect.poll(() => page.getByRole('status').textContent(), slowMachine).toContain('on its way');
      await mailer.idle();
      seen.mail = mails.filter((mail) => mail.to === user.email).at(-1);
      expect(seen.mail, 'the sign-in mail').toBeDefined();
      // The person opens the mail's link, in this browser, and confirms.
      await page.goto(seen.mail!.link);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname !== '/_cms/sign-in/link', slowMachine);
      const landed = new URL(page.url());
      seen.path = landed.pathname;
      // Until issue 29 (item 11) the link ended on the account page and the connection was lost.
      expect(landed.pathname + landed.search).toBe(authorizationUrl.pathname + authorizationUrl.search);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), slowMachine).toBe('Connect an app');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.href.startsWith(clientRedirectUrl));
      return new URL(page.url());
    });
    const client = await connectWithOAuth(server.mcpUrl, server.issuer, provider);
    try {
      expect(seen.path).toBe('/_cms/oauth/authorize');
      expect(seen.mail!.text).toContain('go back to where you asked for it');
      expect(provider.saved!.scope).toBe('content:read content:write media:read media:write');
      expect((await client.callTool({ name: 'taxonomy_list', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
      await context.close();
    }
  });
});
