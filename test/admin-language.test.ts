import { describe, expect, it } from 'vitest';
import { createCollection, createEntry } from './support/content.ts';
import { eventually, expectAccessible, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's interface language (issue 33), in Debian's chromium: it follows the browser's
 * languages (German for de-AT), a person switches it in the account screen, the choice stays on
 * that browser, and dates and numbers are written as the language writes them.
 */
const panel = panelSuite();

describe('the interface language', () => {
  it('switches to German in the account screen and back, and the choice outlives a reload', { timeout: 60_000 }, async () => {
    await createCollection(panel.t, 'posts', [{ slug: 'title', type: 'string' }], { label: 'Posts' });
    for (let index = 0; index < 1200; index++) await createEntry(panel.t, 'posts', { data: { title: `Post ${index}` } });
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id, { locale: 'en-GB' });
    try {
      await page.goto(panel.server.url('/account'));
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      const language = page.getByLabel('Interface language');
      expect(await language.locator('option:checked').textContent()).toBe('As the browser asks (English)');

      await language.selectOption({ label: 'Deutsch' });
      await page.getByRole('heading', { name: 'Ihr Konto', level: 1 }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      const navigation = page.getByRole('navigation', { name: 'Hauptnavigation' });
      expect(await navigation.getByRole('link', { name: 'Konto' }).count()).toBe(1);
      await expectAccessible(page, 'account, in German');

      await page.reload();
      await page.getByRole('heading', { name: 'Ihr Konto', level: 1 }).waitFor();
      await navigation.getByRole('link', { name: 'Dashboard' }).click();
      // Numbers as German writes them: 1.200, not 1,200.
      const row = page.getByRole('table').getByRole('row', { name: /^Posts/ });
      await eventually(() => row.getByRole('cell').first().textContent()).toBe('1.200');

      await page.goto(panel.server.url('/account'));
      await page.getByLabel('Sprache der Oberfläche').selectOption({ label: 'Wie der Browser es wünscht (English)' });
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await page.reload();
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('speaks German to a browser that asks for it, until its person chooses English', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id, { locale: 'de-AT' });
    try {
      await page.goto(panel.server.url('/account'));
      await page.getByRole('heading', { name: 'Ihr Konto', level: 1 }).waitFor();
      const language = page.getByLabel('Sprache der Oberfläche');
      expect(await language.locator('option:checked').textContent()).toBe('Wie der Browser es wünscht (Deutsch)');
      await language.selectOption({ label: 'English' });
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    } finally {
      await context.close();
    }
  });
});
