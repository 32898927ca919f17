import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, expectCreated } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { describedBy, eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';
import { wordpressSites } from './support/wordpress-sites.ts';
import { generatedExport } from './support/wxr-generator.ts';
import { analyze, smallExport } from './support/wxr.ts';

/**
 * The import wizard (issue 33), in Debian's chromium: an admin checks where the old site is, uploads
 * its export, reviews the analysis (authors matched to people), imports, and follows it to a report
 * that leads to the entries; an import goes on when the tab closes and is found again; one that
 * stopped is resumed from the page and duplicates nothing. An Editor is offered none of it.
 */
const panel = panelSuite({ env: { OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' } });

let sites: http.Server;
let sitesOrigin: string;
beforeAll(async () => {
  sites = wordpressSites();
  await new Promise<void>((resolve) => sites.listen(0, '127.0.0.1', resolve));
  sitesOrigin = `http://127.0.0.1:${(sites.address() as AddressInfo).port}`;
  await createCollection(panel.t, 'posts', [{ slug: 'title', type: 'string' }], { label: 'Posts' });
  await createCollection(panel.t, 'pages', [{ slug: 'title', type: 'string' }], { label: 'Pages' });
});
afterAll(async () => {
  await new Promise((resolve) => sites.close(resolve));
});

const posts = async (prefix: string) => {
  const items: { data: { title: string } }[] = [];
  let cursor: string | undefined;
  do {
    const page = expectSuccess(await panel.t.request('GET', `${api}/content/posts?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: panel.t.adminToken }));
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items.filter((item) => item.data.title.startsWith(prefix));
};

describe('the import wizard', () => {
  it('checks the old site, uploads its export, reviews it, imports it and leads to what it made', { timeout: 90_000 }, async () => {
    const ann = await panel.t.userWithToken(30, ['content:read'], 'ann@wizard.example');
    const { context, page, cspViolations } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
      await page.getByRole('heading', { name: 'Import a site', level: 1 }).waitFor();

      await page.getByLabel('The site’s address').fill(`${sitesOrigin}/pretty`);
      await page.getByRole('button', { name: 'Check the site' }).click();
      const found = page.getByRole('status', { name: 'What Folio found' });
      await eventually(() => found.textContent()).toContain('Pretty permalinks is a self-hosted WordPress site.');
      expect(await found.textContent()).toContain('It shows 12 public posts, 3 pages and 40 media files.');
      expect(await found.textContent()).toContain('open Tools → Export');
      await expectAccessible(page, 'import: the site checked');

      await page.getByLabel('Export file', { exact: true }).setInputFiles({ name: 'wizard.xml', mimeType: 'application/xml', buffer: smallExport('wizard') });
      await page.getByRole('button', { name: 'Upload and analyse' }).click();
      await page.getByRole('heading', { name: 'wizard', level: 2 }).waitFor();
      expect(page.url()).toContain('analysis=');
      const types = page.getByRole('table', { name: 'Content' });
      expect(await types.getByRole('row').filter({ hasText: 'Import post' }).getByRole('cell').first().textContent()).toBe('3');
      expect(await types.getByRole('checkbox', { name: 'Import page' }).isChecked()).toBe(true);
      // The author's email is a person's of this site: their entries are offered to them.
      const owner = page.getByRole('combobox', { name: 'Entries of Ann Example belong to' });
      expect(await owner.inputValue()).toBe(ann.user.id);
      expect(await page.getByText('1 comment comes with its entry, its thread and moderation state kept.').count()).toBe(1);
      await expectAccessible(page, 'import: the review');

      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByRole('heading', { name: 'Imported', level: 2 }).waitFor({ timeout: 30_000 });
      expect(page.url()).toContain('job=');
      const report = page.getByRole('list', { name: 'What was imported' });
      expect(await report.getByRole('link', { name: '3 entries in Posts' }).count()).toBe(1);
      expect(await report.getByText('1 comment: 1 held for moderation, 0 spam, 0 in the trash').count()).toBe(1);
      expect(await report.getByRole('link', { name: '1 entry in Pages' }).count()).toBe(1);
      const skipped = page.getByRole('table', { name: 'Skipped' });
      expect(await skipped.getByRole('rowheader').first().textContent()).toContain('status trash is not imported');
      await expectAccessible(page, 'import: the report');

      // A warning leads to the entry it concerns.
      const warnings = page.getByRole('table', { name: /warnings?$/ });
      await warnings.getByRole('link', { name: 'wizard wizard-secret' }).click();
      await eventually(() => page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('wizard wizard-secret');
      expect(await posts('wizard ')).toHaveLength(3);
      expect(cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('goes on when the tab closes, and the page finds it again and follows it to its report', { timeout: 120_000 }, async () => {
    const first = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    const file = Buffer.from(await text(generatedExport({ posts: 4000, site: 'https://closed-tab.example', contentBytes: 200 })));
    try {
      await first.page.goto(panel.server.url('/import'));
      await first.page.getByLabel('Export file', { exact: true }).setInputFiles({ name: 'big.xml', mimeType: 'application/xml', buffer: file });
      await first.page.getByRole('button', { name: 'Upload and analyse' }).click();
      await first.page.getByRole('button', { name: 'Import', exact: true }).click();
      await first.page.getByRole('progressbar', { name: 'Import progress' }).or(first.page.getByRole('heading', { name: 'Imported', level: 2 })).first().waitFor({ timeout: 30_000 });
    } finally {
      await first.context.close();
    }

    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/import'));
      const recent = page.getByRole('table', { name: 'Recent imports' });
      // The newest import is this one, running or done by now: either way the page leads to it.
      await recent.getByRole('row').nth(1).getByRole('link').click();
      await page.getByRole('heading', { name: 'Imported', level: 2 }).waitFor({ timeout: 90_000 });
      const report = page.getByRole('list', { name: 'What was imported' });
      expect(await report.getByRole('link', { name: '3,600 entries in Posts' }).count()).toBe(1);
      expect(await report.getByRole('link', { name: '400 entries in Pages' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('shows an import that stopped, what it did and why, and resumes it from the page without doubling anything', { timeout: 90_000 }, async () => {
    const t = panel.t;
    const file = smallExport('stopped');
    const analysisId = expectCreated(await analyze(t, file)).analysisId;
    // The stored upload goes missing for a while (an object store's outage): the attempt fails.
    const { storage_key: key } = await t.db.kysely.selectFrom('import_analyses').select('storage_key').where('id', '=', analysisId).executeTakeFirstOrThrow();
    await t.storage.delete([key]);
    const stopped = await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, body: { analysisId } });
    const jobId: string = stopped.body.data.item.id;

    const { context, page } = await signedInPage(panel.browser, panel.server, t.admin.id);
    try {
      await page.goto(panel.server.url(`/import?job=${jobId}`));
      await page.getByRole('heading', { name: 'The import stopped', level: 2 }).waitFor();
      expect(await page.getByRole('alert').first().textContent()).toContain('It stopped:');
      await expectAccessible(page, 'import: stopped');

      await t.storage.write(key, Readable.from([file]), { contentType: 'application/xml' });
      await page.getByRole('button', { name: 'Resume the import' }).click();
      await page.getByRole('heading', { name: 'Imported', level: 2 }).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('list', { name: 'What was imported' }).getByRole('link', { name: '3 entries in Posts' }).count()).toBe(1);
      expect(await posts('stopped ')).toHaveLength(3);
    } finally {
      await context.close();
    }
  });

  it('finds an export analysed and left before its import again, and leads back to its review', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/import'));
      await page.getByLabel('Export file', { exact: true }).setInputFiles({ name: 'left.xml', mimeType: 'application/xml', buffer: smallExport('left') });
      await page.getByRole('button', { name: 'Upload and analyse' }).click();
      await page.getByRole('heading', { name: 'left', level: 2 }).waitFor();
      await page.getByRole('link', { name: 'Start again with another file' }).click();
      const waiting = page.getByRole('table', { name: 'Analysed, not imported yet' });
      await waiting.getByRole('link', { name: 'left', exact: true }).click();
      await page.getByRole('heading', { name: 'left', level: 2 }).waitFor();
      expect(await page.getByRole('checkbox', { name: 'Import post' }).isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('says at the file input why an upload was refused', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/import'));
      await page.getByLabel('Export file', { exact: true }).setInputFiles({ name: 'notes.xml', mimeType: 'application/xml', buffer: Buffer.from('<notes><note>not an export</note></notes>') });
      await page.getByRole('button', { name: 'Upload and analyse' }).click();
      const input = page.getByLabel('Export file', { exact: true });
      await eventually(() => input.getAttribute('aria-invalid')).toBe('true');
      expect(await describedBy(input)).toMatch(/\S/);
      expect(page.url()).not.toContain('analysis=');
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no import, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/import', link: 'Import', says: 'Importing a site is for administrators.', action: 'Upload and analyse' });
  });
});
