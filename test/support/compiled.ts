import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest's global setup: builds dist/ when the sources changed since the last build (a few seconds;
 * nothing when it is current), so the tests that start `folio` run the compiled server users run
 * (docs/decisions/0039), in a clone fresh from `npm ci` or after an edit alike.
 */
export default function ensureCompiled(): void {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('../../bin/build.mjs', import.meta.url)), '--if-stale'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status ?? build.signal}): the tests that start folio need dist/`);
}
