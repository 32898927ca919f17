import { defineConfig } from 'vitest/config';
import { missingWordPressData } from './test/support/wordpress-data.ts';
import { databaseProjects, testFilesAtOnce } from './vitest.projects.ts';

// The fidelity suite (`npm run test:fidelity`): the import on WordPress's own test data, which lies
// beside the clone, not in it. Where it is absent the run stops here, at once, with one sentence
// saying what it needs: never a pass that tested nothing, never skipped tests.
const missing = missingWordPressData();
if (missing) {
  console.error(missing);
  process.exit(1);
}

export default defineConfig({
  test: { maxWorkers: testFilesAtOnce, projects: databaseProjects({ include: ['test/fidelity/**/*.test.ts'] }) },
});
