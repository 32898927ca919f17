// Plain JavaScript with no dependency, loaded before tsx or any native addon: on an older Node.js those
// fail without a word (better-sqlite3 ends Node 20 with a segmentation fault), and `npm install` on one
// installs nothing at all (engines are enforced), so not even a small package may be imported here.
import fs from 'node:fs';

const packageJson = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const required = packageJson.engines.node;

/** `major.minor.patch` of a version such as `v20.11.1` or `22.12.0`, as numbers. */
function parseVersion(text) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (!match) throw new Error(`folio: cannot read the Node.js version "${text}"`);
  return match.slice(1, 4).map(Number);
}

/** The least version a `>=X.Y.Z` range accepts: the only form package.json's `engines` uses. */
function minimumOf(range) {
  const match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(range.trim());
  if (!match) throw new Error(`folio: package.json's engines.node must read ">=X.Y.Z", not "${range}"`);
  return match[1];
}

function isAtLeast(version, minimum) {
  for (let part = 0; part < 3; part += 1) {
    if (version[part] !== minimum[part]) return version[part] > minimum[part];
  }
  return true;
}

/** Exits with one sentence on stderr when this Node.js is not one package.json's `engines` accepts. */
export function refuseUnsupportedNode() {
  const needed = minimumOf(required);
  if (isAtLeast(parseVersion(process.version), parseVersion(needed))) return;
  const major = parseVersion(needed)[0];
  console.error(
    `folio: Node.js ${process.version} (${process.execPath}) is not supported: Folio needs Node.js ${needed} or newer, ` +
      `so install the latest Node.js ${major} from https://nodejs.org or with a version manager (nvm install ${major}) and run this again.`,
  );
  process.exit(1);
}
