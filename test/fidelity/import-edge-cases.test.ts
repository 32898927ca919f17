import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectCreated } from '../support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from '../support/harness.ts';
import { analyze, fixture, fixturesDir, themeUnitTest, withMediaAt } from '../support/wxr.ts';

/**
 * The WordPress importer's own edge cases (fidelity suite; test/import-bad-input.test.ts refuses the
 * same kinds of broken file, written out, in the default suite): its malformed files refused with a 400
 * naming the problem and nothing kept, and every well-formed one imported without a failed item.
 */
describe('WordPress import on the WordPress importer edge cases', () => {
  let t: TestApp;
  let mediaDir: string;
  const request = (method: string, url: string, body?: unknown) => t.request(method, `${api}${url}`, { token: t.adminToken, body });
  const stored = () => (fs.existsSync(path.join(mediaDir, 'imports')) ? fs.readdirSync(path.join(mediaDir, 'imports')) : []);

  beforeAll(async () => {
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-'));
    t = await createTestApp({ MEDIA_DIR: mediaDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  const cases: [string, () => Uint8Array, RegExp][] = [
    ['malformed XML (unclosed item)', () => fs.readFileSync(fixture('importer-edge-cases/malformed-simple.xml')), /Malformed XML/],
    ['malformed XML (a channel that is not one)', () => fs.readFileSync(fixture('importer-edge-cases/malformed.xml')), /Malformed XML|no <channel>/],
    ['malformed XML (nested CDATA)', () => fs.readFileSync(fixture('importer-edge-cases/crazy-cdata.xml')), /Malformed XML/],
    ['a missing WXR version', () => fs.readFileSync(fixture('importer-edge-cases/missing-version-tag.xml')), /no WXR version/],
    ['an unknown WXR version', () => fs.readFileSync(fixture('importer-edge-cases/invalid-version-tag.xml')), /Unknown WXR version "abc"/],
    ['the theme unit test cut short', () => fs.readFileSync(themeUnitTest).subarray(0, 400_000), /Malformed XML/],
  ];

  for (const [name, bytes, message] of cases) {
    it(`refuses ${name} with a 400 naming the problem, keeping nothing`, async () => {
      const response = await analyze(t, bytes());
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(message);
      expect((await t.db.kysely.selectFrom('import_analyses').select('id').execute()).length).toBe(0);
      expect(stored()).toEqual([]);
      expect((await t.db.kysely.selectFrom('collections').select('id').execute()).length).toBe(0);
    });
  }

  it('imports every well-formed edge case of the WordPress importer without a failed item', { timeout: 120_000 }, async () => {
    const broken = new Set(['malformed-simple.xml', 'malformed.xml', 'crazy-cdata.xml', 'missing-version-tag.xml', 'invalid-version-tag.xml']);
    const files = fs.readdirSync(path.join(fixturesDir, 'importer-edge-cases')).filter((name) => !broken.has(name));
    expect(files.length).toBeGreaterThan(25);
    for (const name of files) {
      // Their media moved to a loopback address this app may not reach: refused by the guard, nothing fetched.
      const analysis = expectCreated(await analyze(t, withMediaAt(fixture(`importer-edge-cases/${name}`), 'http://127.0.0.1:9')));
      const postTypes = analysis.postTypes.map((type: { name: string }) => ({ name: type.name, collection: `e_${type.name.replace(/[^a-z0-9_]/g, '_')}`, enabled: true }));
      if (postTypes.length > 0) expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes }));
      const mappings = Object.fromEntries(postTypes.map((type: { name: string; collection: string }) => [type.name, { collection: type.collection }]));
      const done = expectSuccess(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, postTypeMappings: mappings, options: { includeMedia: true } })).item;
      expect(done.state, `${name}: ${done.lastError}`).toBe('succeeded');
      expect(done.report.failed, name).toEqual([]);
      for (const failure of done.report.media.downloads.failures) expect(failure.error, name).toMatch(/not a public address/);
    }
  });
});
