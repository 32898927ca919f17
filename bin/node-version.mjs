// Plain JavaScript, loaded before tsx or any native addon: on an older Node.js those fail without a word
// (better-sqlite3 ends Node 20 with a segmentation fault), so the version is checked first.
import fs from 'node:fs';
import semver from 'semver';

const packageJson = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const required = packageJson.engines.node;

/** Exits with one sentence on stderr when this Node.js is not one package.json's `engines` accepts. */
export function refuseUnsupportedNode() {
  if (semver.satisfies(process.version, required)) return;
  const needed = semver.minVersion(required);
  console.error(
    `folio: Node.js ${process.version} (${process.execPath}) is not supported: Folio needs Node.js ${needed} or newer, ` +
      `so install the latest Node.js ${needed.major} from https://nodejs.org or with a version manager (nvm install ${needed.major}) and run this again.`,
  );
  process.exit(1);
}
