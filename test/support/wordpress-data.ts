import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where WordPress's own test data lies: beside the clone (`../shared/fixtures/wordpress/`, as on the
 * CI machine), or where FOLIO_WORDPRESS_DATA says. It is never copied into the repository; only the
 * fidelity suite (test/fidelity/, `npm run test:fidelity`) reads it.
 */
export const wordpressDataDir = process.env.FOLIO_WORDPRESS_DATA
  ? path.resolve(process.env.FOLIO_WORDPRESS_DATA)
  : fileURLToPath(new URL('../../../shared/fixtures/wordpress/', import.meta.url));

/** The files and folders the fidelity suite reads. */
const needed = ['theme-test-data/themeunittestdata.wordpress.xml', 'theme-test-data/64-block-test-data.xml', 'importer-edge-cases/malformed-simple.xml', 'importer-edge-cases/small-export.xml'];

/** One sentence naming what is missing and where to get it, or undefined when the data is there. */
export function missingWordPressData(): string | undefined {
  const missing = needed.filter((file) => !fs.existsSync(path.join(wordpressDataDir, file)));
  if (missing.length === 0) return undefined;
  const what = missing.length === needed.length ? `WordPress's test data in ${wordpressDataDir}` : `${missing.map((file) => path.join(wordpressDataDir, file)).join(', ')}`;
  return (
    `The fidelity suite needs ${what} (not in the repository; CI has it beside the clone): copy a CI machine's ../shared/fixtures/wordpress/ there ` +
    `or set FOLIO_WORDPRESS_DATA to where it lies, or assemble it from WordPress/theme-test-data at commit b47acf9 (as theme-test-data/) and ` +
    `WordPress/wordpress-importer at commit 5fda048 (phpunit/data/ and e2e/fixtures/ as e2e-*.xml, as importer-edge-cases/).`
  );
}
