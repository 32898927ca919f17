import { describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { describedBy, eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's access tokens screen (issue 33), in Debian's chromium: an admin creates a token of one
 * scope for themselves, copies its secret (shown once), a script then calls the API with it (what
 * the scope allows answered, what it does not refused), and revoking it
 * after a confirmation shuts that script out; the server's refusals are shown at their fields; an
 * Editor is offered no tokens.
 */
const panel = panelSuite();

const me = (token: string) => panel.t.request('GET', `${api}/auth/me`, { token });

describe('the access tokens screen', () => {
  it('creates a token with one scope and an expiry, shows its secret once to copy, and revokes it after a confirmation', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: panel.server.origin });
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access tokens' }).click();
      await page.getByRole('heading', { name: 'Access tokens', level: 1 }).waitFor();
      await page.getByRole('textbox', { name: 'Name' }).fill('deploy script');
      // One scope, the one offered first: reading content.
      expect(await page.getByRole('checkbox', { name: 'content:read' }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'content:write' }).isChecked()).toBe(false);
      await page.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'In 7 days' });
      await expectAccessible(page, 'tokens');
      await page.getByRole('button', { name: 'Create token' }).click();

      const secretField = page.getByRole('textbox', { name: 'The new token' });
      await secretField.waitFor();
      await page.getByRole('heading', { name: 'Copy the token deploy script now' }).waitFor();
      const secret = await secretField.inputValue();
      await page.getByRole('button', { name: 'Copy' }).click();
      await eventually(() => page.getByRole('status').filter({ hasText: 'Copied.' }).count()).toBe(1);
      expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(secret);
      await expectAccessible(page, 'tokens: the new secret');

      // What a script holding the secret gets: the scope chosen, and no other; the token expiring in a week.
      const answer = await me(secret);
      expect(answer.status).toBe(200);
      expect(answer.body.data.scopes).toEqual(['content:read']);
      expect((await panel.t.request('GET', `${api}/taxonomies`, { token: secret })).status).toBe(200);
      const refused = await panel.t.request('GET', `${api}/schema/collections`, { token: secret });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain('schema:read');
      const [stored] = (await panel.t.request('GET', `${api}/admin/tokens`, { token: panel.t.adminToken })).body.data.items.filter((token: { name: string }) => token.name === 'deploy script');
      const week = Date.parse(stored.expiresAt) - Date.now();
      expect(week).toBeGreaterThan(6.9 * 86_400_000);
      expect(week).toBeLessThanOrEqual(7 * 86_400_000);

      // Done: the secret is gone from the screen for good; the table lists the token as the signed-in admin's.
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await secretField.count()).toBe(0);
      const row = page.getByRole('row', { name: /deploy script/ });
      await eventually(() => row.getByRole('cell').first().textContent()).toBe(`${panel.t.admin.name} (you)`);
      expect(await row.getByRole('cell').nth(1).textContent()).toBe('content:read');

      await row.getByRole('button', { name: 'Revoke deploy script' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Revoke the token deploy script?' });
      await dialog.waitFor();
      await expectAccessible(page, 'tokens: revoke');
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('The token deploy script is revoked.');
      expect(await page.getByRole('row', { name: /deploy script/ }).count()).toBe(0);
      expect((await me(secret)).status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('shows what the server refuses at its field: a blank name, no scope', { timeout: 60_000 }, async () => {
    const before = (await panel.t.request('GET', `${api}/admin/tokens`, { token: panel.t.adminToken })).body.data.items.length;
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/tokens'));
      const name = page.getByRole('textbox', { name: 'Name' });
      await name.fill('   ');
      await page.getByRole('checkbox', { name: 'content:read' }).uncheck();
      await page.getByRole('button', { name: 'Create token' }).click();
      await eventually(() => name.getAttribute('aria-invalid')).toBe('true');
      expect(await describedBy(name)).toContain('Must not be blank');
      const scopes = page.getByRole('group', { name: 'Scopes' });
      expect(await scopes.getAttribute('aria-invalid')).toBe('true');
      expect(await describedBy(scopes)).toContain('Give at least one scope');
      expect(await page.getByRole('alert').count()).toBe(0);
      await expectAccessible(page, 'tokens refused');
      expect((await panel.t.request('GET', `${api}/admin/tokens`, { token: panel.t.adminToken })).body.data.items.length).toBe(before);
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no tokens, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/tokens', link: 'Access tokens', says: 'Only administrators manage access tokens.', action: 'Create token' });
  });
});
