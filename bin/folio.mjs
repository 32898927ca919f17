#!/usr/bin/env node
// Runs Folio's TypeScript sources directly (tsx), so `npx folio` works right after `npm install`.
import { refuseUnsupportedNode } from './node-version.mjs';

// Before anything else loads: tsx and the native database driver are imported only after this check.
refuseUnsupportedNode();
const { register } = await import('tsx/esm/api');
register();
await import('../src/main.ts');
