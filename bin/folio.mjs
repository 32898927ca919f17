#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=25 --expose-gc
// The V8 flags size the young generation for the request path rather than by the machine's memory
// (docs/decisions/0054, 0069); grow the old generation by a quarter of what survives rather than V8's
// several times, so a long import's garbage does not swell the process (docs/decisions/0029); and
// give the server V8's `gc`, with which it frees a streamed body's buffers as they pass (0069).
// `npm start` passes the same flags.
// Runs the compiled server, dist/main.js, which `npm install` builds (docs/decisions/0039).
import { refuseUnsupportedNode } from './node-version.mjs';
import { becomeServerProcess } from './server-process.mjs';
import { staleness } from './compiled.mjs';

// Before anything else loads: the server's modules and the native database driver are imported only after this check.
refuseUnsupportedNode();
if (process.argv[2] === 'serve') becomeServerProcess();
const stale = staleness();
if (stale === undefined) {
  // A plugin or import source given as a .ts file: Node.js strips its types itself from 22.18 on; before, tsx does.
  if (!process.features.typescript) (await import('tsx/esm/api')).register();
  await import('../dist/main.js');
} else {
  // A checkout whose sources changed since the last build (or that was never built) still runs, from
  // its TypeScript, as `npm run dev` does: slower to start, and said so.
  console.error(`folio: dist/ ${stale}, so this runs the TypeScript sources through tsx, seconds slower to start: run \`npm run build\` to start fast again.`);
  const { register } = await import('node:module');
  // As under `npm run dev` and vitest: a plugin's `import 'folio-cms/plugins'` gets these same sources.
  register('data:text/javascript,export function resolve(specifier, context, next) { return next(specifier, { ...context, conditions: [...context.conditions, "development"] }); }');
  (await import('tsx/esm/api')).register();
  await import('../src/main.ts');
}
