import { describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection } from './support/content.ts';
import { eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's audit log (issue 33), in Debian's chromium, with the audit-log plugin loaded: an admin
 * reads who did what and when, newest first, narrows it by person, action and days (kept in the
 * address across a reload), and pages to older records; an Editor is offered none of it.
 */
const panel = panelSuite({ plugins: ['audit-log'] });

/** A day `offset` days from the server clock's, as a date field takes it. */
const dayOf = (now: Date, offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

describe('the audit log screen', () => {
  it('lists who did what and when, filtered by person, action and days, older records a page at a time', { timeout: 90_000 }, async () => {
    const t = panel.t;
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    const { user: editor, token } = await t.userWithToken(roles.editor, ['content:read', 'content:write']);
    const created = [];
    for (let index = 0; index < 55; index += 1) {
      created.push((await t.request('POST', `${api}/content/posts`, { token, body: { data: { title: `Post ${index}` } } })).body.data.item);
    }
    expect((await t.request('POST', `${api}/content/posts/${created[0].id}/publish`, { token: t.adminToken })).status).toBe(200);

    const { context, page } = await signedInPage(panel.browser, panel.server, t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
      const table = page.getByRole('table', { name: 'What happened, newest first' });
      const rows = table.getByRole('row');
      // The newest first: the admin's publication (after the sign-in that opened this page's session).
      await eventually(() => rows.count()).toBe(51);
      expect(await rows.nth(2).getByRole('cell').nth(1).textContent()).toBe('content.published');
      expect(await rows.nth(2).getByRole('cell').nth(0).textContent()).toBe(t.admin.email);
      await expectAccessible(page, 'audit log');

      await page.getByRole('button', { name: 'Show older' }).click();
      // 55 saves, a publication and the sign-in: 57 records, and the header.
      await eventually(() => rows.count()).toBe(58);
      expect(await page.getByRole('button', { name: 'Show older' }).count()).toBe(0);

      await page.getByRole('combobox', { name: 'Who' }).selectOption({ label: `${editor.name} (${editor.email})` });
      await page.getByRole('combobox', { name: 'What' }).selectOption({ label: 'content.saved' });
      await eventually(() => rows.count()).toBe(51);
      const whoAndWhat = await rows.evaluateAll((found) => found.slice(1).map((row) => [...(row as unknown as { cells: { textContent: string }[] }).cells].slice(1, 3).map((cell) => cell.textContent).join(' ')));
      expect(new Set(whoAndWhat)).toEqual(new Set([`${editor.email} content.saved`]));

      const now = t.clock.now();
      await page.getByLabel('From').fill(dayOf(now, -1));
      await page.getByLabel('To').fill(dayOf(now, 1));
      await eventually(() => rows.count()).toBe(51);
      // The filters are in the address: a reload (or a shared link) shows the same records.
      await eventually(() => Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ who: editor.id, action: 'content.saved', from: dayOf(now, -1), to: dayOf(now, 1) });
      await page.reload();
      await eventually(() => rows.count()).toBe(51);
      expect(await page.getByRole('combobox', { name: 'What' }).inputValue()).toBe('content.saved');
      expect(await page.getByLabel('From').inputValue()).toBe(dayOf(now, -1));
      await page.getByLabel('From').fill(dayOf(now, 2));
      await page.getByLabel('To').fill('');
      await eventually(() => page.getByText('Nothing recorded matches.').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no audit log, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/audit', link: 'Audit log', says: 'Only administrators read the audit log.', action: 'Show older' });
  });
});
