#!/usr/bin/env -S node --max-semi-space-size=2
// The V8 flag keeps the young generation small, so buffers a request streams through are freed within
// milliseconds instead of piling up (docs/decisions/0016). `npm start` passes the same flag.
// Runs Folio's TypeScript sources directly (tsx), so `npx folio` works right after `npm install`.
import { refuseUnsupportedNode } from './node-version.mjs';

// Before anything else loads: tsx and the native database driver are imported only after this check.
refuseUnsupportedNode();
const { register } = await import('tsx/esm/api');
register();
await import('../src/main.ts');
