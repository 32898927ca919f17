#!/usr/bin/env node
// Runs Folio's TypeScript sources directly (tsx), so `npx folio` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
