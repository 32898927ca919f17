import type { Page } from 'playwright-core';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { deferredMailer, type Mail } from '../src/auth/mail.ts';
import { roles } from '../src/core/roles.ts';
import { deviceWithPasskeys } from './support/browser.ts';
import { api } from './support/content.ts';
import { describedBy, eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's people screen (issue 33), in Debian's chromium: an admin finds people by name and role,
 * sees when each last signed in, invites someone (who accepts in a browser of their own and signs
 * in), changes a role, disables and enables a person (whose token stops and starts working), and sees
 * the server's refusal at its field; an Editor is offered none of it.
 */
const mails: Mail[] = [];
const mailer = deferredMailer(true, pino({ level: 'silent' }), async (mail) => void mails.push(mail));
const panel = panelSuite({ mailer });

/** On a loaded machine the sign-in pages' answers and the panel's first load take seconds. */
const slowMachine = { timeout: 20_000 };

const readUser = async (id: string) => (await panel.t.request('GET', `${api}/admin/users/${id}`, { token: panel.t.adminToken })).body.data.item;
const status = (page: Page) => page.getByRole('status').first().textContent();

describe('the people screen', () => {
  it('finds people, shows their last sign-in, changes a role, disables and enables someone', { timeout: 60_000 }, async () => {
    const { user: writer, token: writerToken } = await panel.t.userWithToken(roles.contributor, ['content:read']);
    await panel.t.userWithToken(roles.author, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
      await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();

      // The admin signed in (the session this browser holds); the writer never did.
      const adminRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: `${panel.t.admin.name} (you)`, exact: true }) });
      await eventually(() => adminRow.getByRole('cell').nth(3).textContent()).not.toBe('Never');
      expect(await adminRow.getByRole('combobox', { name: `Role of ${panel.t.admin.name}` }).isDisabled()).toBe(true);
      await expectAccessible(page, 'people');

      await page.getByRole('combobox', { name: 'Filter by role' }).selectOption({ label: 'Contributor' });
      await page.getByRole('searchbox', { name: 'Name or email' }).fill(writer.name);
      const rows = page.getByRole('table').getByRole('row');
      // The header and the one person matching both.
      await eventually(() => rows.count()).toBe(2);
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: writer.name, exact: true }) });
      expect(await row.getByRole('cell').nth(0).textContent()).toBe(writer.email);
      expect(await row.getByRole('cell').nth(2).textContent()).toBe('Active');
      expect(await row.getByRole('cell').nth(3).textContent()).toBe('Never');

      await row.getByRole('combobox', { name: `Role of ${writer.name}` }).selectOption({ label: 'Editor' });
      await eventually(() => status(page)).toBe(`${writer.name} is now Editor.`);
      expect((await readUser(writer.id)).role).toBe(roles.editor);

      // Filtered by Contributor, the new Editor leaves the list; any role brings them back.
      await eventually(() => page.getByText('Nobody matches.').count()).toBe(1);
      await page.getByRole('combobox', { name: 'Filter by role' }).selectOption({ label: 'Any role' });
      await row.waitFor();
      await row.getByRole('button', { name: `Disable ${writer.name}` }).click();
      const dialog = page.getByRole('alertdialog', { name: `Disable ${writer.name}?` });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Disable' }).click();
      await eventually(() => status(page)).toBe(`${writer.name} is disabled.`);
      // The row is read back with the list, whose re-render may follow the notice by a tick
      // (TanStack Query tells its observers on a timer): a CI run on PostgreSQL read it in between.
      await eventually(() => row.getByRole('cell').nth(2).textContent()).toBe('Disabled');
      expect((await readUser(writer.id)).disabled).toBe(true);
      expect((await panel.t.request('GET', `${api}/auth/me`, { token: writerToken })).status).toBe(401);

      await row.getByRole('button', { name: `Enable ${writer.name}` }).click();
      await eventually(() => status(page)).toBe(`${writer.name} can sign in again.`);
      expect((await readUser(writer.id)).disabled).toBe(false);
      expect((await panel.t.request('GET', `${api}/auth/me`, { token: writerToken })).status).toBe(200);
    } finally {
      await context.close();
    }
  });

  it('invites someone with a role, who accepts in a browser of their own and signs in; shows at the field that an address is taken', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/people'));
      const email = page.getByRole('textbox', { name: 'Email' });
      await email.fill('new.author@example.com');
      await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption({ label: 'Author' });
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await eventually(() => status(page)).toBe('An invitation went to new.author@example.com as Author.');
      const invitation = await panel.t.db.kysely.selectFrom('invitations').select(['email', 'role']).where('email', '=', 'new.author@example.com').executeTakeFirst();
      expect(invitation).toEqual({ email: 'new.author@example.com', role: roles.author });
      expect(await email.inputValue()).toBe('');

      // The invited person, in a browser of their own with a passkey device: joins, then signs in again.
      await mailer.idle();
      const link = mails.find((mail) => mail.to === 'new.author@example.com')!.link;
      const invited = await deviceWithPasskeys(panel.browser);
      try {
        await invited.page.goto(link);
        await expect.poll(() => invited.page.locator('main').textContent(), slowMachine).toContain('new.author@example.com');
        await invited.page.getByLabel('Your name').fill('Nell Author');
        await invited.page.getByRole('button', { name: 'Join and create a passkey' }).click();
        await invited.page.waitForURL(panel.server.url('/'), slowMachine);
        await invited.page.goto(panel.server.url('/account'));
        await expect.poll(() => invited.page.getByText('Signed in as Nell Author (new.author@example.com)', { exact: true }).count(), slowMachine).toBe(1);
        await invited.page.getByRole('button', { name: 'Sign out' }).click();
        await invited.page.waitForURL(`${panel.server.origin}/_cms/sign-in`, slowMachine);
        await invited.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await invited.page.waitForURL(panel.server.url('/'), slowMachine);
        await invited.page.goto(panel.server.url('/account'));
        await expect.poll(() => invited.page.getByText('Signed in as Nell Author (new.author@example.com)', { exact: true }).count(), slowMachine).toBe(1);
      } finally {
        await invited.context.close();
      }
      const people: { email: string; name: string; role: number }[] = (await panel.t.request('GET', `${api}/admin/users`, { token: panel.t.adminToken })).body.data.items;
      expect(people.filter((user) => user.email === 'new.author@example.com').map((user) => [user.name, user.role])).toEqual([['Nell Author', roles.author]]);

      await email.fill(panel.t.admin.email);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await eventually(() => email.getAttribute('aria-invalid')).toBe('true');
      expect(await describedBy(email)).toContain('already in use');
      expect(await page.getByRole('alert').count()).toBe(0);
      await expectAccessible(page, 'people: invitation refused');
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no people, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/people', link: 'People', says: 'Only administrators manage the site’s people.', action: 'Send invitation' });
  });
});
