import { describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { recordConsent } from '../src/oauth/grants.ts';
import { api } from './support/content.ts';
import { eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's connected apps for the whole site (issue 33), in Debian's chromium: an admin sees every
 * app people connected over OAuth with who allowed it, narrows to one person, and disconnects one,
 * as the API then reads it; an Editor is offered none of it.
 */
const panel = panelSuite();

/** An app registered as MCP clients register themselves (RFC 7591), then allowed by `userId` as the consent page records it. */
async function connect(userId: string, name: string): Promise<void> {
  const registered = await fetch(`${panel.server.origin}${api}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: ['http://127.0.0.1:9999/callback'] }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  await recordConsent(panel.t.db, userId, clientId, ['content:read'], new Date());
}

const siteGrants = async () => (await panel.t.request('GET', `${api}/admin/grants`, { token: panel.t.adminToken })).body.data.items as { clientName: string }[];

describe('the connected apps screen', () => {
  it("lists everyone's apps with who allowed them, narrows to one person, and disconnects one", { timeout: 60_000 }, async () => {
    const { user: writer } = await panel.t.userWithToken(roles.author, ['content:read']);
    const { user: editor } = await panel.t.userWithToken(roles.editor, ['content:read']);
    await connect(writer.id, 'Notebook app');
    await connect(editor.id, 'Sync tool');
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connected apps' }).click();
      await page.getByRole('heading', { name: 'Connected apps', level: 1 }).waitFor();
      const table = page.getByRole('table', { name: 'Apps connected over OAuth' });
      const appRow = (app: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: app, exact: true }) });
      await eventually(() => appRow('Sync tool').getByRole('cell').first().textContent()).toBe(editor.name);
      expect(await appRow('Notebook app').getByRole('cell').first().textContent()).toBe(writer.name);
      expect(await appRow('Notebook app').getByRole('cell').nth(1).textContent()).toBe('content:read');
      await expectAccessible(page, 'connected apps');

      await page.getByRole('combobox', { name: 'Whose' }).selectOption({ label: `${editor.name} (${editor.email})` });
      await eventually(() => table.getByRole('rowheader').allTextContents()).toEqual(['Sync tool']);
      await appRow('Sync tool').getByRole('button', { name: `Disconnect Sync tool of ${editor.name}` }).click();
      await page.getByRole('alertdialog', { name: `Disconnect Sync tool of ${editor.name}?` }).getByRole('button', { name: 'Disconnect' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe(`Sync tool of ${editor.name} is disconnected.`);
      await eventually(() => page.getByText('No app is connected.').count()).toBe(1);
      expect((await siteGrants()).map((grant) => grant.clientName)).toEqual(['Notebook app']);
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no connected apps of the site, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/apps', link: 'Connected apps', says: 'Only administrators see the whole site’s connected apps', action: 'Disconnect' });
  });
});
