import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { ApiResponse, TestApp } from './harness.ts';

/** Every media suite runs once per storage backend (issue 9). */
export const storageBackends = ['local', 's3'] as const;
export type StorageBackend = (typeof storageBackends)[number];

/** A storage for one suite: the config it needs, and what it holds now (to check nothing is left behind). */
export interface TestStorage {
  env: Record<string, string>;
  /** Every object key, Folio's partial files included. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestStorage(backend: StorageBackend): Promise<TestStorage> {
  if (backend === 's3') {
    const { startS3Server } = await import('./s3.ts');
    return startS3Server();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-media-'));
  return {
    env: { MEDIA_STORAGE: 'local', MEDIA_DIR: dir },
    keys: async () => listFiles(dir).sort(),
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function listFiles(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

export const api = '/_cms/api';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A picture with detail (a gradient and noise), so encoders do real work; JPEG unless said otherwise. */
export async function testImage(width: number, height: number, format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
  return sharp({ create: { width, height, channels: 3, background: '#3366cc', noise } }).toFormat(format).toBuffer();
}

/** A multipart body as a browser's FormData encodes it, ready for `rawBody`. */
export async function multipart(parts: Record<string, string | { bytes: Uint8Array; filename: string; type?: string }>): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.bytes], { type: value.type ?? 'application/octet-stream' }), value.filename);
  }
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/** `POST /media/upload` with these parts; `token: null` sends none. */
export async function upload(t: TestApp, parts: Parameters<typeof multipart>[0], token: string | null = t.adminToken): Promise<ApiResponse> {
  const { body, contentType } = await multipart(parts);
  return t.request('POST', `${api}/media/upload`, { token: token ?? undefined, rawBody: body, headers: { 'content-type': contentType } });
}

/** Uploads `bytes` (claimed as `type`, default image/png) and returns the new item, asserting the 201. */
export async function uploadMedia(t: TestApp, bytes: Uint8Array, options: { filename?: string; type?: string; alt?: string } = {}) {
  const file = { bytes, filename: options.filename ?? 'pixel.png', type: options.type ?? 'image/png' };
  const response = await upload(t, options.alt === undefined ? { file } : { file, alt: options.alt });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.item;
}

/** A tiny PNG; each colour gives other bytes, hence another item (uploads of the same bytes are one item). */
export async function tinyPng(background = '#00f', width = 4, height = 3): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

/** The nth of as many distinct tiny PNGs as a test needs. */
export function distinctPng(index: number): Promise<Buffer> {
  return tinyPng(`#${(index + 1).toString(16).padStart(6, '0')}`);
}

/** GET a file by its URL's path and query. */
export function getFile(t: TestApp, url: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const parsed = new URL(url, 'http://localhost');
  return t.request('GET', parsed.pathname + parsed.search, { headers });
}
