import { describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { describedBy, eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's plugins screen (issue 33), in Debian's chromium, with the shipped audit log and
 * webhooks loaded: an admin switches a plugin off and on, as the API then reads it, and edits its
 * settings in the form made from its settings schema, the plugin's refusal shown at the field; an
 * Editor is offered none of it.
 */
const panel = panelSuite({ plugins: ['audit-log', 'webhooks'] });

const readPlugin = async (id: string) => (await panel.t.request('GET', `${api}/plugins/${id}`, { token: panel.t.adminToken })).body.data.item;
const readSettings = async (id: string) => (await panel.t.request('GET', `${api}/plugins/${id}/settings`, { token: panel.t.adminToken })).body.data.settings;

describe('the plugins screen', () => {
  it('switches a plugin off and on, and saves its settings from the form its schema makes', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plugins' }).click();
      await page.getByRole('heading', { name: 'Plugins', level: 1 }).waitFor();
      const audit = page.getByRole('region', { name: /^Audit log/ });
      await audit.waitFor();
      expect(await page.getByRole('region', { name: /^Webhooks/ }).count()).toBe(1);

      const on = audit.getByRole('switch', { name: 'Audit log is on' });
      expect(await on.isChecked()).toBe(true);
      await audit.getByText('Audit log is on').click();
      await eventually(async () => (await readPlugin('audit-log')).enabled).toBe(false);
      await eventually(() => on.isChecked()).toBe(false);
      await audit.getByText('Audit log is on').click();
      await eventually(async () => (await readPlugin('audit-log')).enabled).toBe(true);
      await eventually(() => on.isChecked()).toBe(true);

      // The one setting of the audit log's schema: an integer with its description as the hint.
      const form = audit.getByRole('form', { name: 'Settings of Audit log' });
      const days = form.getByRole('spinbutton', { name: 'Retention days' });
      await eventually(() => days.inputValue()).toBe('90');
      expect(await describedBy(days)).toContain('Records older than this many days are deleted');
      await expectAccessible(page, 'plugins');

      await days.fill('0');
      await form.getByRole('button', { name: 'Save the settings of Audit log' }).click();
      await eventually(() => days.getAttribute('aria-invalid')).toBe('true');
      expect(await describedBy(days)).toMatch(/>=1/);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect((await readSettings('audit-log')).retentionDays).toBe(90);

      await days.fill('30');
      await form.getByRole('button', { name: 'Save the settings of Audit log' }).click();
      await eventually(() => form.getByRole('status').textContent()).toBe('The settings of Audit log are saved.');
      expect(await days.getAttribute('aria-invalid')).toBeNull();
      expect(await readSettings('audit-log')).toEqual({ retentionDays: 30 });
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no plugins, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/plugins', link: 'Plugins', says: 'Only administrators manage plugins.', action: 'Save the settings of Audit log' });
  });
});
