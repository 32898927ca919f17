// `npm run build` (and `npm install`, through `prepare`): compiles src/ to dist/, the JavaScript that
// `folio` and `npm start` run (docs/decisions/0039), and bundles the administration panel from admin/
// into dist/admin/ beside it (docs/decisions/0042), both at once. tsc emits without type-checking
// (`noCheck` in tsconfig.build.json): `npm run typecheck` does that, and a build never fails where tsx would run.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildPanel, runNode } from './build-panel.mjs';
import { distDir, root, srcDir, staleness, stampName } from './compiled.mjs';

/** TypeScript files the server reads as text (src/schema/typescript.ts), copied beside the JavaScript. */
const textSources = ['content/value-types.ts'];

// `--if-stale` (tests and benches, before they start `folio`): nothing to do when dist/ is current.
if (process.argv.includes('--if-stale') && staleness() === undefined) process.exit(0);

const began = Date.now();
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.error('folio build: TypeScript is not installed; run `npm install` (with the dev dependencies) first.');
  process.exit(1);
}

// Into a folder of its own, moved in place once complete: a server started meanwhile finds either the
// previous build or this one, never half of one.
const building = path.join(root, `.dist-${process.pid}`);
fs.rmSync(building, { recursive: true, force: true });
try {
  await Promise.all([runNode([tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', building], 'tsc'), buildPanel(path.join(building, 'admin'))]);
} catch (error) {
  fs.rmSync(building, { recursive: true, force: true });
  console.error(`folio build: ${error.message}; dist/ is unchanged.`);
  process.exit(1);
}

// What the server reads from beside its own modules: the sign-in page's script, and the like.
for (const entry of fs.readdirSync(srcDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const relative = path.relative(srcDir, path.join(entry.parentPath, entry.name));
  if (relative.endsWith('.ts') && !textSources.includes(relative.split(path.sep).join('/'))) continue;
  fs.mkdirSync(path.dirname(path.join(building, relative)), { recursive: true });
  fs.copyFileSync(path.join(srcDir, relative), path.join(building, relative));
}

const stamp = path.join(building, stampName);
fs.writeFileSync(stamp, 'Compiled from src/ by bin/build.mjs; its modification time is when the build began.\n');
fs.utimesSync(stamp, began / 1000, began / 1000);

// Another build may be swapping its own in at the same moment: try again until this one is in place.
for (let attempt = 0; ; attempt += 1) {
  const previous = path.join(root, `.dist-${process.pid}-previous-${attempt}`);
  try {
    fs.renameSync(distDir, previous);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    fs.renameSync(building, distDir);
    fs.rmSync(previous, { recursive: true, force: true });
    break;
  } catch (error) {
    fs.rmSync(previous, { recursive: true, force: true });
    if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || attempt >= 10) throw error;
  }
}
console.error(`folio build: dist/ compiled from src/ and admin/ in ${((Date.now() - began) / 1000).toFixed(1)} s`);
