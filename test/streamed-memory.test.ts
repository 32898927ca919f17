import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.ts';
import { api, getFile, multipart, sha256 } from './support/media.ts';

/**
 * decisions/0069: a server that has V8's `gc` (bin/folio.mjs passes --expose-gc) runs a minor
 * collection each time another 4 MiB of request bodies has streamed in, so the buffers already
 * written are freed as the upload goes. The in-process app is given a `gc` that counts.
 */
const step = 4 * 1024 * 1024;
let t: TestApp;
const gc = vi.fn();
let processGc: unknown;

beforeAll(async () => {
  processGc = (globalThis as { gc?: unknown }).gc;
  (globalThis as { gc?: unknown }).gc = gc;
  t = await createTestApp();
});
afterAll(async () => {
  (globalThis as { gc?: unknown }).gc = processGc;
  await t.close();
});

function pdf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'));
  for (let i = 9; i < size; i += 1) bytes[i] = (i * 7919) % 251;
  return bytes;
}

/** `POST /media/upload` of `bytes`, its body sent in 64 KiB pieces as a socket delivers it; the body's length too. */
async function uploadInPieces(bytes: Uint8Array, filename: string) {
  const { body, contentType } = await multipart({ file: { bytes, filename, type: 'application/pdf' } });
  const piece = 64 * 1024;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.subarray(offset, (offset += piece)));
    },
  });
  const response = await t.request('POST', `${api}/media/upload`, { token: t.adminToken, rawBody: stream, headers: { 'content-type': contentType } });
  return { response, length: body.length };
}

describe('streamed request bodies', () => {
  it('run a minor collection each time 4 MiB more have streamed in, counted across uploads, and arrive whole', async () => {
    const large = pdf(9 * 1024 * 1024);
    const first = await uploadInPieces(large, 'large.pdf');
    expect(first.response.status).toBe(201);
    expect(gc.mock.calls).toEqual([[{ type: 'minor' }], [{ type: 'minor' }]]);
    // 1 MiB over the two steps carries over: a 3 MiB upload passes the third.
    const second = await uploadInPieces(pdf(3 * 1024 * 1024), 'small.pdf');
    expect(second.response.status).toBe(201);
    expect(Math.floor((first.length + second.length) / step)).toBe(3);
    expect(gc).toHaveBeenCalledTimes(3);
    const stored = await getFile(t, first.response.body.data.item.url);
    expect(stored.status).toBe(200);
    expect(sha256(stored.bytes)).toBe(sha256(large));
  });
});
