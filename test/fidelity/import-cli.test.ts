import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.ts';
import { openCliImportSetting, type CliImportSetting } from '../support/import-cli.ts';
import type { MediaFixtureServer } from '../support/media-fixtures.ts';
import { runCli } from '../support/process.ts';
import { allPages, blockTestData, importedEntries, sourceItems, themeUnitTest, withMediaAt } from '../support/wxr.ts';

/**
 * `folio import wxr` on WordPress's own test data (fidelity suite; test/import-cli.test.ts imports a
 * generated site the same way in the default suite): progress on stderr, the report on stdout.
 */
describe('folio import wxr, on the theme unit test and block test data', () => {
  let t: TestApp;
  let dir: string;
  let env: Record<string, string>;
  // The theme unit test's media site, on loopback: it has none of the files.
  let site: MediaFixtureServer;

  let setting: CliImportSetting;
  beforeAll(async () => {
    setting = await openCliImportSetting();
    ({ t, dir, env, site } = setting);
  });
  afterAll(() => setting.close());

  it('imports the theme unit test and the block test data, printing progress and the report', { timeout: 120_000 }, async () => {
    const themeFile = path.join(dir, 'themeunittestdata.xml');
    fs.writeFileSync(themeFile, withMediaAt(themeUnitTest, site.origin));
    const result = await runCli(['import', 'wxr', themeFile, '--media'], env, 90_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/importing Theme Unit Test Data \(58 posts, 21 pages\) as job /);
    expect(result.stderr).toMatch(/done 186\/186 \(100%\)/);
    const { state, report } = JSON.parse(result.stdout);
    expect(state).toBe('succeeded');
    expect(report).toMatchObject({ counts: { posts: 58, pages: 21 }, terms: 191, menus: 6, menuItems: 70, failed: [] });
    // Every file a 404: marked for manual handling, and the import done all the same.
    expect(report.media.downloads).toMatchObject({ total: 37, downloaded: 0, failed: 37 });
    expect(report.media.pending).toHaveLength(37);
    expect(site.hits.size).toBe(37);

    const entries = await importedEntries(t);
    const pages = new Map((await allPages<{ id: string; data: { parent?: string | null } }>(t, '/content/pages')).map((page) => [page.id, page]));
    for (const item of sourceItems(themeUnitTest).filter((candidate) => candidate.type === 'page')) {
      expect(pages.get(entries.get(item.id)!)!.data.parent ?? null, item.id).toBe(item.parent === '0' ? null : entries.get(item.parent)!);
    }

    const blocks = await runCli(['import', 'wxr', blockTestData], env, 90_000);
    expect(blocks.code, blocks.stderr).toBe(0);
    const second = JSON.parse(blocks.stdout).report;
    expect(second.failed).toEqual([]);
    const imported = await importedEntries(t);
    expect(sourceItems(blockTestData).filter((item) => ['post', 'page'].includes(item.type) && !imported.has(item.id))).toEqual([]);
  });
});
