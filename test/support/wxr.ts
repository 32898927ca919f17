import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { api } from './content.ts';
import type { ApiResponse, TestApp } from './harness.ts';
import { multipart } from './media.ts';

/** The shared WordPress test data (read where it lies, never copied into the repository). */
export const fixturesDir = fileURLToPath(new URL('../../../shared/fixtures/wordpress/', import.meta.url));
export const fixture = (name: string) => path.join(fixturesDir, name);
export const themeUnitTest = fixture('theme-test-data/themeunittestdata.wordpress.xml');
export const blockTestData = fixture('theme-test-data/64-block-test-data.xml');

/** Uploads an export (a fixture path, or bytes) to the analyze endpoint. */
export async function analyze(t: TestApp, file: string | Uint8Array, token = t.adminToken, filename = 'export.xml'): Promise<ApiResponse> {
  const bytes = typeof file === 'string' ? fs.readFileSync(file) : file;
  const { body, contentType } = await multipart({ file: { bytes, filename, type: 'application/xml' } });
  return t.request('POST', `${api}/import/legacy/analyze`, { token, rawBody: body, headers: { 'content-type': contentType } });
}
