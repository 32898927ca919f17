import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from './support/process.ts';

/**
 * The two suites (decision 0038): the default one reads nothing outside the repository, and the
 * fidelity one, where WordPress's test data is absent, stops at once with one sentence saying what it
 * needs and where to get it, before any test is collected: never a silent pass, never skipped tests.
 */
describe('the test suites', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-wordpress-data-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const fidelity = (data: string) => runProcess(process.execPath, [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.fidelity.config.ts'], { FOLIO_WORDPRESS_DATA: data }, { timeoutMs: 60_000 });

  it('the fidelity suite, without WordPress test data, fails at once with one sentence naming the directory and where to get it', async () => {
    const missing = path.join(dir, 'nowhere');
    const result = await fidelity(missing);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^The fidelity suite needs WordPress's test data in .+\.$/)]);
    expect(result.stderr).toContain(missing);
    expect(result.stderr).toMatch(/FOLIO_WORDPRESS_DATA/);
    expect(result.stderr).toMatch(/WordPress\/theme-test-data at commit b47acf9/);
    expect(result.stdout).not.toMatch(/Test Files|skipped/);
  });

  it('names the files that are missing when only part of the data is there', async () => {
    fs.mkdirSync(path.join(dir, 'partial/theme-test-data'), { recursive: true });
    for (const name of ['themeunittestdata.wordpress.xml', '64-block-test-data.xml']) fs.writeFileSync(path.join(dir, 'partial/theme-test-data', name), '<rss/>');
    const result = await fidelity(path.join(dir, 'partial'));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(path.join(dir, 'partial/importer-edge-cases/malformed-simple.xml'));
    expect(result.stderr).not.toContain('themeunittestdata');
  });

  it('no test of the default suite reads WordPress test data', () => {
    const files = fs.readdirSync(path.join(repoRoot, 'test'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.startsWith(`fidelity${path.sep}`));
    expect(files.length).toBeGreaterThan(50);
    const readers = files.filter((file) => !['support/wxr.ts', 'support/wordpress-data.ts', 'test-suites.test.ts'].includes(file) && /\b(fixturesDir|fixture\(|themeUnitTest|blockTestData|wordpressDataDir|withMediaAt)\b|shared\/fixtures/.test(fs.readFileSync(path.join(repoRoot, 'test', file), 'utf8')));
    expect(readers).toEqual([]);
  });
});
