#!/usr/bin/env -S node --max-semi-space-size=2 --heap-growing-percent=25
// The V8 flags keep the young generation small, so buffers a request streams through are freed within
// milliseconds instead of piling up (docs/decisions/0016), and the old generation growing by a quarter
// of what survives rather than V8's several times, so a long import's garbage does not swell the
// process (docs/decisions/0029). `npm start` passes the same flags.
// Runs Folio's TypeScript sources directly (tsx), so `npx folio` works right after `npm install`.
import { refuseUnsupportedNode } from './node-version.mjs';
import { becomeServerProcess } from './server-process.mjs';

// Before anything else loads: tsx and the native database driver are imported only after this check.
refuseUnsupportedNode();
if (process.argv[2] === 'serve') becomeServerProcess();
const { register } = await import('tsx/esm/api');
register();
await import('../src/main.ts');
