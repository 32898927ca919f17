import { describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { describedBy, eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's settings screen (issue 33), in Debian's chromium: an admin changes the site's settings
 * and the API reads them back; what the server refuses is shown at its field with the form kept; an
 * Editor is offered no settings at all.
 */
const panel = panelSuite();

const readSettings = async () => (await panel.t.request('GET', `${api}/settings`, { token: panel.t.adminToken })).body.data;

describe('the settings screen', () => {
  it('changes the title, the page size, the locales and public read access, as the API then reads them', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      const title = page.getByRole('textbox', { name: 'Site title' });
      await eventually(() => title.inputValue()).toBe('Folio');
      await title.fill('Field notes');
      await page.getByRole('spinbutton', { name: 'Posts per page' }).fill('25');
      await page.getByRole('textbox', { name: 'Locales' }).fill('en, fr');
      const publicRead = page.getByRole('switch', { name: 'Public read access' });
      expect(await publicRead.isChecked()).toBe(false);
      // The switch's input is drawn by its label, which a person clicks.
      await page.getByText('Public read access', { exact: true }).click();
      await expectAccessible(page, 'settings');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await eventually(() => page.getByRole('status').textContent()).toBe('Settings saved.');
      expect(await readSettings()).toMatchObject({ siteTitle: 'Field notes', postsPerPage: 25, locales: ['en', 'fr'], publicRead: true });

      await page.reload();
      await eventually(() => page.getByRole('textbox', { name: 'Site title' }).inputValue()).toBe('Field notes');
      expect(await page.getByRole('switch', { name: 'Public read access' }).isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('shows what the server refuses at its field, and keeps what was typed', { timeout: 60_000 }, async () => {
    const before = await readSettings();
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/settings'));
      const zone = page.getByRole('textbox', { name: 'Time zone' });
      await eventually(() => zone.inputValue()).toBe(before.timezone);
      await page.getByRole('textbox', { name: 'Tagline' }).fill('Notes from the field');
      await zone.fill('Mars/Olympus_Mons');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await eventually(() => zone.getAttribute('aria-invalid')).toBe('true');
      // The server's own words, as the field's description that a screen reader reads with it.
      expect(await describedBy(zone)).toContain('Must be an IANA time zone such as Europe/Paris');
      // At its field only: no message elsewhere on the screen, before or after the field is edited.
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.getByRole('textbox', { name: 'Tagline' }).inputValue()).toBe('Notes from the field');
      await expectAccessible(page, 'settings refused');
      expect((await readSettings()).timezone).toBe(before.timezone);

      await zone.fill('Europe/Paris');
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await eventually(() => page.getByRole('status').textContent()).toBe('Settings saved.');
      expect(await zone.getAttribute('aria-invalid')).toBeNull();
      expect(await readSettings()).toMatchObject({ timezone: 'Europe/Paris', tagline: 'Notes from the field' });
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no settings, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/settings', link: 'Settings', says: 'Only administrators manage the site’s settings.', action: 'Save settings' });
  });
});
