import { defineConfig } from 'vitest/config';
import { databaseProjects, testFilesAtOnce } from './vitest.projects.ts';

// The default suite: everything under test/ but the fidelity suite (test/fidelity/, which reads
// WordPress's own test data from outside the repository: `npm run test:fidelity`, vitest.fidelity.config.ts).
// It needs nothing beside the clone; the exports its import tests read are generated (test/support/wxr-generator.ts).
export default defineConfig({
  test: { maxWorkers: testFilesAtOnce, projects: databaseProjects({ include: ['test/**/*.test.ts'], exclude: ['test/fidelity/**'] }) },
});
