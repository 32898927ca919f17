import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/content.ts';
import { expectSuccess } from '../support/harness.ts';
import { startMediaFixtures, type MediaFixtureServer } from '../support/media-fixtures.ts';
import { distinctPng } from '../support/media.ts';
import { eventually, expectAccessible, panelSuite, signedInPage } from '../support/panel.ts';
import { attachmentPaths, themeUnitTest, withMediaAt } from '../support/wxr.ts';

/**
 * The panel's import wizard end to end on WordPress's theme unit test data (issue 33), in Debian's
 * chromium: the export uploaded, its analysis reviewed, imported with its media (served by a
 * loopback stand-in for the public site), the report read, and an imported entry opened from it.
 */
const panel = panelSuite({ env: { OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' } });
let site: MediaFixtureServer;

beforeAll(async () => {
  site = await startMediaFixtures();
  for (const [index, path] of attachmentPaths(themeUnitTest).entries()) site.serve(path, await distinctPng(index));
});
afterAll(async () => {
  await site.close();
});

describe('the import wizard on the theme unit test data', () => {
  it('imports it with its media and opens an imported entry from the report', { timeout: 240_000 }, async () => {
    const { context, page, cspViolations } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/import'));
      await page.getByLabel('Export file', { exact: true }).setInputFiles({ name: 'themeunittestdata.wordpress.xml', mimeType: 'application/xml', buffer: withMediaAt(themeUnitTest, site.origin) });
      await page.getByRole('button', { name: 'Upload and analyse' }).click();
      await page.getByRole('heading', { name: 'Theme Unit Test Data', level: 2 }).waitFor({ timeout: 60_000 });
      const types = page.getByRole('table', { name: 'Content' });
      const items = (type: string) => types.getByRole('row').filter({ hasText: `Import ${type}` }).getByRole('cell').first().textContent();
      expect(await items('post')).toBe('58');
      expect(await items('page')).toBe('21');
      await page.getByRole('checkbox', { name: 'Download the 37 media files from the old site into the media library' }).check();
      await expectAccessible(page, 'import: the theme unit test data reviewed');

      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByRole('heading', { name: 'Imported', level: 2 }).waitFor({ timeout: 180_000 });
      const report = page.getByRole('list', { name: 'What was imported' });
      expect(await report.getByRole('link', { name: /^58 entries in / }).count()).toBe(1);
      expect(await report.getByRole('link', { name: /^21 entries in / }).count()).toBe(1);
      expect(await report.textContent()).toContain('37 of 37 media files in the library, 0 failed');
      await expectAccessible(page, 'import: the theme unit test data report');

      // A warning's item leads to the entry it became.
      const warned = page.getByRole('table', { name: /warnings?$/ }).getByRole('link').first();
      const title = (await warned.textContent())!;
      await warned.click();
      await eventually(() => page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(title);
      const imported = expectSuccess(await panel.t.request('GET', `${api}/import/jobs?limit=1`, { token: panel.t.adminToken })).items[0];
      expect(imported.report.counts).toEqual({ posts: 58, pages: 21 });
      expect(cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
