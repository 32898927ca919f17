// Plain JavaScript with no dependency, like node-version.mjs: bin/folio.mjs imports it before anything
// else is loaded. It knows where the compiled server lies (dist/, docs/decisions/0039) and whether it
// is the compilation of the sources beside it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const srcDir = path.join(root, 'src');
/** The administration panel's sources, which the build bundles into dist/admin/ (docs/decisions/0042). */
const adminDir = path.join(root, 'admin');
/** Made by the build from src/ (bin/panel-api-types.ts), so never newer than what it was made from. */
const generated = [path.join(adminDir, 'src', 'api', 'schema.d.ts')];
export const distDir = path.join(root, 'dist');
/** Written last by bin/build.mjs, with the time the build began as its modification time. */
export const stampName = '.built';
/** Besides src/ and admin/, what the compilation depends on. */
const configFiles = ['tsconfig.json', 'tsconfig.build.json'];

/**
 * Why dist/ is not the compilation of src/ as it is now, as the end of a sentence, or undefined when it
 * is. A file changed after the build began makes it stale; so does a build that never finished. In a
 * package from the registry all files carry one time, so its dist/ is current.
 */
export function staleness() {
  let builtAt;
  try {
    builtAt = fs.statSync(path.join(distDir, stampName)).mtimeMs;
  } catch {
    return 'has not been built';
  }
  const newer = newestInput(builtAt);
  return newer ? `is older than ${path.relative(root, newer)}` : undefined;
}

/** The first input file modified after `time`, or undefined. */
function newestInput(time) {
  for (const file of configFiles) {
    const full = path.join(root, file);
    if (modifiedAfter(full, time)) return full;
  }
  for (const dir of [srcDir, adminDir]) {
    let entries;
    try {
      entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
    } catch {
      continue; // no sources beside it: nothing it could be older than
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      if (!generated.includes(full) && modifiedAfter(full, time)) return full;
    }
  }
  return undefined;
}

function modifiedAfter(file, time) {
  try {
    return fs.statSync(file).mtimeMs > time;
  } catch {
    return false;
  }
}
