import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from './harness.ts';
import { startMediaFixtures, type MediaFixtureServer } from './media-fixtures.ts';

/** Where `folio import` runs in a test: an app on a fresh database, a folder for its media, and a loopback media site that has none of the files. */
export interface CliImportSetting {
  t: TestApp;
  dir: string;
  /** The CLI's environment: the app's database and media folder, a short job lease, loopback downloads allowed. */
  env: Record<string, string>;
  site: MediaFixtureServer;
  close(): Promise<void>;
}

export async function openCliImportSetting(): Promise<CliImportSetting> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-import-cli-'));
  const site = await startMediaFixtures();
  const t = await createTestApp({ MEDIA_DIR: path.join(dir, 'media') });
  const env = { DATABASE_URL: t.database.url, MEDIA_DIR: path.join(dir, 'media'), LOG_LEVEL: 'warn', JOB_LEASE_MS: '1500', OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' };
  return {
    t,
    dir,
    env,
    site,
    async close() {
      await t.close();
      await site.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
