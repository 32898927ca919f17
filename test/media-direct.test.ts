import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';

function expectCreated(response: ApiResponse) {
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.item;
}
import { api, getFile, sha256, startTestStorage, storageBackends, testImage, type TestStorage } from './support/media.ts';

/** Direct uploads (`POST /media/upload-url`, then the bytes, then `POST /media`), on each storage backend. */
describe.each(storageBackends)('direct uploads to %s storage', (backend) => {
  let t: TestApp;
  let storage: TestStorage;
  beforeAll(async () => {
    storage = await startTestStorage(backend);
    t = await createTestApp({ ...storage.env, MEDIA_UPLOAD_LIMIT: '1mb' });
  });
  afterAll(async () => {
    await t.close();
    await storage.close();
  });

  interface Target {
    uploadUrl: string;
    method: string;
    headers: Record<string, string>;
    storageKey: string;
    expiresAt: string;
  }

  async function uploadUrl(body: unknown): Promise<Target> {
    return expectSuccess(await t.request('POST', `${api}/media/upload-url`, { token: t.adminToken, body }));
  }

  /** Sends the bytes where the target says: Folio's own URL in-process, the S3 server's over loopback. */
  async function send(target: Target, bytes: Uint8Array, headers = target.headers): Promise<number> {
    const url = new URL(target.uploadUrl);
    if (url.hostname === 'localhost') return (await t.request(target.method, url.pathname, { rawBody: bytes, headers })).status;
    const response = await fetch(url, { method: target.method, headers, body: bytes });
    await response.arrayBuffer();
    return response.status;
  }

  const register = (body: Record<string, unknown>): Promise<ApiResponse> => t.request('POST', `${api}/media`, { token: t.adminToken, body });

  it('hands out an upload target, takes the bytes there, and registers them described from the bytes', async () => {
    const bytes = await testImage(120, 80);
    const target = await uploadUrl({ filename: 'Direct Photo.jpg', mimeType: 'image/jpeg', size: bytes.length });
    expect(target).toMatchObject({ method: 'PUT', headers: { 'content-type': 'image/jpeg' }, storageKey: expect.stringMatching(/^\d{4}\/\d{2}\/[\w-]{22}-direct-photo\.jpg$/) });
    expect(Date.parse(target.expiresAt) - t.clock.now().getTime()).toBe(15 * 60 * 1000);
    if (backend === 'local') expect(target.uploadUrl).toMatch(/^http:\/\/localhost\/_cms\/api\/media\/upload\/[0-9A-Z]{26}\.[\w-]{32}$/);
    else expect(new URL(target.uploadUrl).searchParams.get('X-Amz-Signature')).toBeTruthy();
    expect(await send(target, bytes)).toBe(200);

    const response = await register({ filename: 'Direct Photo.jpg', mimeType: 'image/jpeg', size: bytes.length, width: 120, height: 80, storageKey: target.storageKey, alt: 'Direct' });
    expect(response.status).toBe(201);
    const item = response.body.data.item;
    expect(item).toMatchObject({ filename: 'Direct Photo.jpg', mimeType: 'image/jpeg', size: bytes.length, width: 120, height: 80, alt: 'Direct', contentHash: sha256(bytes), storageKey: target.storageKey });
    expect(sha256((await getFile(t, item.url)).bytes)).toBe(sha256(bytes));
    expect(expectError(await register({ filename: 'again.jpg', mimeType: 'image/jpeg', size: bytes.length, storageKey: target.storageKey }), 409, 'CONFLICT').details).toEqual({ storageKey: target.storageKey });
  });

  it('refuses declared values the stored bytes contradict, naming each, and records nothing', async () => {
    const bytes = await testImage(50, 40, 'png');
    const target = await uploadUrl({ filename: 'check.png', mimeType: 'image/png', size: bytes.length });
    expect(await send(target, bytes)).toBe(200);
    const base = { filename: 'check.png', mimeType: 'image/png', size: bytes.length, storageKey: target.storageKey };
    expect(issuePaths(await register({ ...base, size: bytes.length + 1 }))).toEqual(['size']);
    expect(issuePaths(await register({ ...base, mimeType: 'image/jpeg' }))).toEqual(['mimeType']);
    expect(issuePaths(await register({ ...base, width: 51, height: 40 }))).toEqual(['width']);
    const listed = expectSuccess(await t.request('GET', `${api}/media?limit=100`, { token: t.adminToken }));
    expect(listed.items.some((item: { storageKey: string }) => item.storageKey === target.storageKey)).toBe(false);
    expect((await register(base)).status).toBe(201);
  });

  it('keeps the declared values of a key whose bytes have not arrived, and completes them when they do', async () => {
    const bytes = await testImage(64, 48, 'webp');
    const target = await uploadUrl({ filename: 'later.webp', mimeType: 'image/webp', size: bytes.length });
    const early = await register({ filename: 'later.webp', mimeType: 'image/webp', size: bytes.length, width: 10, height: 10, storageKey: target.storageKey });
    expect(early.status).toBe(201);
    const item = early.body.data.item;
    expect(item).toMatchObject({ mimeType: 'image/webp', size: bytes.length, width: 10, height: 10, contentHash: null });
    expectError(await getFile(t, item.url), 404, 'NOT_FOUND');
    expect(await send(target, bytes)).toBe(200);
    const file = await getFile(t, item.url);
    expect(file.status).toBe(200);
    expect(sha256(file.bytes)).toBe(sha256(bytes));
    expect(expectSuccess(await t.request('GET', `${api}/media/${item.id}`, { token: t.adminToken })).item).toMatchObject({ width: 64, height: 48, contentHash: sha256(bytes) });
  });

  it('refuses keys outside the key format with 400', async () => {
    for (const storageKey of ['../etc/passwd', '/etc/passwd', 'a/../b', 'a//b', '.partial/x', '_derived/01ARZ3NDEKTSV4RRFFQ69G5FAV/x.webp', 'a\tb', 'a b', 'ä.jpg', 'x'.repeat(256)]) {
      expect(issuePaths(await register({ filename: 'a.jpg', mimeType: 'image/jpeg', size: 10, storageKey })), storageKey).toEqual(['storageKey']);
    }
  });

  it('refuses a type that is not allowed (415) and a size over the limit (413), for a target and a registration', async () => {
    expectError(await t.request('POST', `${api}/media/upload-url`, { token: t.adminToken, body: { filename: 'a.exe', mimeType: 'application/x-msdownload', size: 10 } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await t.request('POST', `${api}/media/upload-url`, { token: t.adminToken, body: { filename: 'a.mp4', mimeType: 'video/mp4', size: 2 * 1024 * 1024 } }), 413, 'PAYLOAD_TOO_LARGE');
    expectError(await register({ filename: 'a.zip', mimeType: 'application/zip', size: 10, storageKey: 'uploads/a.zip' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await register({ filename: 'a.mp4', mimeType: 'video/mp4', size: 2 * 1024 * 1024, storageKey: 'uploads/a.mp4' }), 413, 'PAYLOAD_TOO_LARGE');
    expect(issuePaths(await t.request('POST', `${api}/media/upload-url`, { token: t.adminToken, body: { filename: '', mimeType: 'image', size: 0 } }))).toEqual(['filename', 'mimeType', 'size']);
    expect(issuePaths(await register({ filename: 'a.jpg', mimeType: 'image/jpeg', size: -1, storageKey: 'a.jpg', extra: 1 }))).toEqual(['size', 'extra']);
  });

  it('stops a direct upload at the size it announced, and a deleted item takes its upload URL with it', async () => {
    const bytes = await testImage(40, 40);
    const target = await uploadUrl({ filename: 'gone.jpg', mimeType: 'image/jpeg', size: bytes.length });
    const item = expectCreated(await register({ filename: 'gone.jpg', mimeType: 'image/jpeg', size: bytes.length, storageKey: target.storageKey }));
    expectSuccess(await t.request('DELETE', `${api}/media/${item.id}`, { token: t.adminToken }));
    if (backend === 'local') expect(await send(target, bytes)).toBe(404);
    const other = await uploadUrl({ filename: 'short.jpg', mimeType: 'image/jpeg', size: 100 });
    if (backend === 'local') {
      const chunked = new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(bytes), controller.close()) });
      const response = await t.request('PUT', new URL(other.uploadUrl).pathname, { rawBody: chunked, headers: other.headers });
      expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    }
  });

  if (backend === 's3') {
    it('removes a registered record whose bytes, sent straight to S3, are not allowed', async () => {
      const target = await uploadUrl({ filename: 'sneaky.png', mimeType: 'image/png', size: 60 });
      const item = expectCreated(await register({ filename: 'sneaky.png', mimeType: 'image/png', size: 60, storageKey: target.storageKey }));
      const html = new TextEncoder().encode(`<html><script>alert(1)</script>${' '.repeat(60 - 38)}</html>`.slice(0, 60));
      expect(await send(target, html)).toBe(200);
      expectError(await getFile(t, item.url), 404, 'NOT_FOUND');
      expectError(await t.request('GET', `${api}/media/${item.id}`, { token: t.adminToken }), 404, 'NOT_FOUND');
      expect((await storage.keys()).includes(target.storageKey)).toBe(false);
    });
  }

  if (backend === 'local') {
    describe('local upload URLs', () => {
      it('take the announced bytes once, and may be retried after a failed try', async () => {
        const bytes = await testImage(30, 30);
        const target = await uploadUrl({ filename: 'once.jpg', mimeType: 'image/jpeg', size: bytes.length });
        expect(await send(target, bytes.subarray(0, 100))).toBe(400);
        expect(await send(target, bytes)).toBe(200);
        expect(await send(target, bytes)).toBe(404);
      });

      it('refuse bytes of a type that is not allowed, and store nothing', async () => {
        const html = new TextEncoder().encode('<html><body><script>alert(1)</script></body></html>');
        const target = await uploadUrl({ filename: 'page.jpg', mimeType: 'image/jpeg', size: html.length });
        const before = await storage.keys();
        expect(await send(target, html)).toBe(415);
        expect(await storage.keys()).toEqual(before);
      });

      it('expire, and a forged or unknown grant is the same 404', async () => {
        const bytes = await testImage(30, 20);
        const target = await uploadUrl({ filename: 'late.jpg', mimeType: 'image/jpeg', size: bytes.length });
        const forged = { ...target, uploadUrl: target.uploadUrl.replace(/\.[\w-]+$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') };
        expect(await send(forged, bytes)).toBe(404);
        expect(await send({ ...target, uploadUrl: 'http://localhost/_cms/api/media/upload/nothing' }, bytes)).toBe(404);
        t.clock.advance(15 * 60 * 1000 + 1);
        expect(await send(target, bytes)).toBe(404);
      });
    });
  }
});
