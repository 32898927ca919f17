import os from 'node:os';
import { configDefaults, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Every suite runs once per database: always on SQLite, and on PostgreSQL when FOLIO_TEST_POSTGRES_URL
 * is set. Each test file gets its own SQLite file or PostgreSQL schema, so files run in parallel.
 */
export function databaseProjects({ include, exclude = [] }: { include: string[]; exclude?: string[] }): TestProjectInlineConfiguration[] {
  const databases = ['sqlite', ...(process.env.FOLIO_TEST_POSTGRES_URL ? ['postgres'] : [])];
  return databases.map((database) => ({
    test: {
      name: database,
      include,
      exclude: [...configDefaults.exclude, ...exclude],
      env: { FOLIO_TEST_DB: database },
      // The tests that start `folio` run the compiled server: dist/ is built first when stale.
      globalSetup: ['test/support/compiled.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  }));
}

/**
 * How many test files run at once. vitest's default (cores − 1) ran one file at a time on CI's two
 * cores, yet most files spend their time waiting on a browser, a child `folio` or the database: three
 * at once halve the suite's wall time there. Each file has its own database, so they never meet.
 */
export const testFilesAtOnce = Math.max(3, os.availableParallelism() - 1);
