import sharp from 'sharp';
import { api, expectCreated } from './content.ts';
import type { TestApp } from './harness.ts';

/** Media items made through the real upload route, for tests of the content that points at them. */

/** A tiny PNG; each colour gives other bytes, hence another item (uploads of the same bytes are one item). */
export async function tinyPng(background = '#00f', width = 4, height = 3): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

/** The nth of as many distinct tiny PNGs as a test needs. */
export function distinctPng(index: number): Promise<Buffer> {
  return tinyPng(`#${(index + 1).toString(16).padStart(6, '0')}`);
}

/** Uploads a file as `POST /media/upload` takes it (multipart) and returns the new item. */
export async function uploadMedia(t: TestApp, bytes: Uint8Array, options: { filename?: string; type?: string; alt?: string } = {}) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/png' }), options.filename ?? 'pixel.png');
  if (options.alt !== undefined) form.append('alt', options.alt);
  // Response encodes the form as a browser would, boundary included in its content type.
  const encoded = new Response(form);
  const headers = { 'content-type': encoded.headers.get('content-type') ?? '' };
  const response = await t.request('POST', `${api}/media/upload`, { token: t.adminToken, rawBody: new Uint8Array(await encoded.arrayBuffer()), headers });
  return expectCreated(response).item;
}
