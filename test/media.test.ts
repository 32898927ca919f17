import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { pngHeaderOnly } from './support/images.ts';
import { api, getFile, sha256, startTestStorage, storageBackends, testImage, upload, uploadMedia, type TestStorage } from './support/media.ts';

/** Records, uploads and file serving, on each storage backend and each database. */
describe.each(storageBackends)('media on %s storage', (backend) => {
  let t: TestApp;
  let storage: TestStorage;
  let readerToken: string;
  let writerToken: string;
  beforeAll(async () => {
    storage = await startTestStorage(backend);
    t = await createTestApp({ ...storage.env, MEDIA_UPLOAD_LIMIT: '2mb' });
    readerToken = (await t.userWithToken(40, ['content:read', 'content:write', 'media:read'])).token;
    writerToken = (await t.userWithToken(20, ['media:read', 'media:write'])).token;
  });
  afterAll(async () => {
    await t.close();
    await storage.close();
  });

  describe('POST /media/upload', () => {
    it('stores the file, describes it from its bytes and answers 201 with the record', async () => {
      const bytes = await testImage(640, 480);
      const response = await upload(t, { file: { bytes, filename: 'Red Square.jpg', type: 'image/jpeg' }, alt: 'A square', caption: 'Seen from above' }, writerToken);
      expect(response.status).toBe(201);
      const { item, created } = response.body.data;
      expect(created).toBe(true);
      expect(item).toMatchObject({
        filename: 'Red Square.jpg',
        mimeType: 'image/jpeg',
        size: bytes.length,
        width: 640,
        height: 480,
        alt: 'A square',
        caption: 'Seen from above',
        contentHash: sha256(bytes),
      });
      expect(item.storageKey).toMatch(/^\d{4}\/\d{2}\/[\w-]{22}-red-square\.jpg$/);
      expect(item.url).toBe(`http://localhost${api}/media/file/${item.storageKey}`);
      expect(expectSuccess(await t.request('GET', `${api}/media/${item.id}`, { token: readerToken })).item).toEqual(item);
      const file = await getFile(t, item.url);
      expect(file.status).toBe(200);
      expect(sha256(file.bytes)).toBe(sha256(bytes));
    });

    it('stores the same bytes once: a second upload answers 200 with the existing record', async () => {
      const bytes = await testImage(32, 32, 'png');
      const first = await uploadMedia(t, bytes, { filename: 'one.png', type: 'image/png' });
      const before = await storage.keys();
      const second = await upload(t, { file: { bytes, filename: 'two.png', type: 'image/png' } });
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual({ item: first, created: false });
      expect(await storage.keys()).toEqual(before);
    });

    it('takes the type from the bytes, not from the claim', async () => {
      const png = await testImage(8, 6, 'png');
      const claimedText = await uploadMedia(t, png, { filename: 'notes.txt', type: 'text/plain' });
      expect(claimedText).toMatchObject({ mimeType: 'image/png', width: 8, height: 6 });
      const text = new TextEncoder().encode('just some words, not a picture\n');
      const claimedPng = await uploadMedia(t, text, { filename: 'fake.png', type: 'image/png' });
      expect(claimedPng).toMatchObject({ mimeType: 'text/plain', width: null, height: null });
    });

    it('refuses a type that is not allowed with 415 and stores nothing', async () => {
      const before = await storage.keys();
      const html = new TextEncoder().encode('<!doctype html><html><script>alert(1)</script></html>');
      const zip = Buffer.from('504b0304140000000800' + '00'.repeat(40), 'hex');
      for (const [bytes, name] of [[html, 'page.jpg'], [zip, 'archive.png']] as const) {
        const error = expectError(await upload(t, { file: { bytes, filename: name, type: 'image/jpeg' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect(error.details.mimeType).toMatch(/^(text\/html|application\/zip)$/);
      }
      expect(await storage.keys()).toEqual(before);
    });

    it('refuses an image of more pixels than transforms decode, reading only its header', async () => {
      const before = await storage.keys();
      expect(issuePaths(await upload(t, { file: { bytes: pngHeaderOnly(9000, 8000), filename: 'huge.png', type: 'image/png' } }))).toEqual(['file']);
      expect(await storage.keys()).toEqual(before);
    });

    it('refuses a corrupt image with 400 and stores nothing', async () => {
      const before = await storage.keys();
      const png = await testImage(16, 16, 'png');
      const corrupt = Buffer.concat([png.subarray(0, 16), Buffer.alloc(200, 7)]);
      expect(issuePaths(await upload(t, { file: { bytes: corrupt, filename: 'broken.png', type: 'image/png' } }))).toEqual(['file']);
      expect(await storage.keys()).toEqual(before);
    });

    it('answers 413 for a body over the limit, before reading it when its length is declared', async () => {
      const before = await storage.keys();
      const big = Buffer.alloc(3 * 1024 * 1024, 1);
      expectError(await upload(t, { file: { bytes: big, filename: 'big.bin' } }), 413, 'PAYLOAD_TOO_LARGE');
      // The body's framing has some room; the file itself may not pass the limit by a byte.
      const justOver = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2 * 1024 * 1024 - 8, 0x41)]);
      expectError(await upload(t, { file: { bytes: justOver, filename: 'over.pdf', type: 'application/pdf' } }), 413, 'PAYLOAD_TOO_LARGE');
      // Sent chunked, without a length: refused when the limit is passed.
      let sent = 0;
      const chunk = new Uint8Array(64 * 1024);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('--b\r\ncontent-disposition: form-data; name="file"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4\n'));
        },
        pull(controller) {
          sent += chunk.length;
          if (sent > 4 * 1024 * 1024) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const chunked = await t.request('POST', `${api}/media/upload`, { token: t.adminToken, rawBody: stream, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
      expectError(chunked, 413, 'PAYLOAD_TOO_LARGE');
      expect(await storage.keys()).toEqual(before);
    });

    it('names what is wrong with the parts', async () => {
      const bytes = await testImage(4, 4);
      expect(issuePaths(await upload(t, { alt: 'no file' }))).toEqual(['file']);
      expect(issuePaths(await upload(t, { file: { bytes: new Uint8Array(0), filename: 'empty.txt' } }))).toEqual(['file']);
      expect(issuePaths(await upload(t, { file: { bytes, filename: 'a.jpg' }, title: 'x' }))).toEqual(['title']);
      expect(issuePaths(await upload(t, { file: { bytes, filename: 'a.jpg' }, alt: 'x'.repeat(1001) }))).toEqual(['alt']);
      expectError(await t.request('POST', `${api}/media/upload`, { token: t.adminToken, body: { file: 'x' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('needs a token (401) with media:write (403)', async () => {
      const part = { file: { bytes: await testImage(4, 4), filename: 'a.jpg' } };
      expectError(await upload(t, part, null), 401, 'UNAUTHORIZED');
      expect(expectError(await upload(t, part, readerToken), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'media:write' });
    });
  });

  describe('GET /media/file/:key', () => {
    let item: { url: string; storageKey: string; size: number; contentHash: string };
    let bytes: Buffer;
    beforeAll(async () => {
      bytes = await testImage(300, 200);
      item = await uploadMedia(t, bytes, { filename: 'served.jpg' });
    });

    it('serves the file publicly with immutable caching, its ETag and nosniff', async () => {
      const file = await getFile(t, item.url);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(bytes)).toBe(true);
      expect(Object.fromEntries(['content-type', 'content-length', 'cache-control', 'etag', 'x-content-type-options', 'content-disposition', 'accept-ranges'].map((name) => [name, file.headers.get(name)]))).toEqual({
        'content-type': 'image/jpeg',
        'content-length': String(bytes.length),
        'cache-control': 'public, max-age=31536000, immutable',
        etag: `"${item.contentHash}"`,
        'x-content-type-options': 'nosniff',
        'content-disposition': "inline; filename*=UTF-8''served.jpg",
        'accept-ranges': 'bytes',
      });
    });

    it('answers HEAD with the headers alone', async () => {
      const head = await t.request('HEAD', new URL(item.url).pathname);
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(bytes.length));
      expect(head.bytes.length).toBe(0);
    });

    it('answers If-None-Match with 304 and Range with 206', async () => {
      const notModified = await getFile(t, item.url, { 'if-none-match': `"${item.contentHash}"` });
      expect(notModified.status).toBe(304);
      const part = await getFile(t, item.url, { range: 'bytes=100-199' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
      expect(part.bytes.equals(bytes.subarray(100, 200))).toBe(true);
      const tail = await getFile(t, item.url, { range: 'bytes=-10' });
      expect(tail.bytes.equals(bytes.subarray(bytes.length - 10))).toBe(true);
      expect((await getFile(t, item.url, { range: `bytes=${bytes.length + 5}-` })).status).toBe(416);
    });

    it('serves what a browser could run script from as an attachment', async () => {
      const svg = new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
      const svgItem = await uploadMedia(t, svg, { filename: 'logo.svg', type: 'image/svg+xml' });
      expect(svgItem.mimeType).toBe('image/svg+xml');
      const file = await getFile(t, svgItem.url);
      expect(file.headers.get('content-type')).toBe('image/svg+xml');
      expect(file.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''logo.svg");
    });

    it('answers 404 with the no-store envelope for unknown keys, traversal and malformed keys', async () => {
      for (const path of ['2026/01/unknown-key.jpg', '%2e%2e/%2e%2e/etc/passwd', '..%2f..%2fetc%2fpasswd', '2026/../../etc/passwd', '.partial/x', '_derived/x/y', '%2fetc%2fpasswd']) {
        const response = await t.request('GET', `${api}/media/file/${path}`);
        expectError(response, 404, 'NOT_FOUND');
        expect(response.headers.get('cache-control')).toBe('private, no-store');
      }
      // A control character is no key at all: the 400 every input with one gets.
      expectError(await t.request('GET', `${api}/media/file/a%00b`), 400, 'VALIDATION_ERROR');
    });
  });

  describe('records', () => {
    it('lists newest first with a cursor, filtered by MIME type prefix', async () => {
      const t2 = await createTestApp(storage.env);
      try {
        const ids: string[] = [];
        for (let index = 0; index < 3; index += 1) {
          ids.push((await uploadMedia(t2, await testImage(10 + index, 10, 'png'), { filename: `p${index}.png`, type: 'image/png' })).id);
          t2.clock.advance(1000);
        }
        ids.push((await uploadMedia(t2, new TextEncoder().encode('plain words'), { filename: 'words.txt', type: 'text/plain' })).id);
        const all = expectSuccess(await t2.request('GET', `${api}/media`, { token: t2.adminToken }));
        expect(all.items.map((item: { id: string }) => item.id)).toEqual([...ids].reverse());
        expect(all.nextCursor).toBeUndefined();
        const first = expectSuccess(await t2.request('GET', `${api}/media?mimeType=image/&limit=2`, { token: t2.adminToken }));
        expect(first.items.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
        const second = expectSuccess(await t2.request('GET', `${api}/media?mimeType=image/&limit=2&cursor=${first.nextCursor}`, { token: t2.adminToken }));
        expect(second.items.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
        expect(second.nextCursor).toBeUndefined();
        const text = expectSuccess(await t2.request('GET', `${api}/media?mimeType=text/plain`, { token: t2.adminToken }));
        expect(text.items.map((item: { id: string }) => item.id)).toEqual([ids[3]]);
      } finally {
        await t2.close();
      }
    });

    it('refuses a bad limit, cursor or filter with 400', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor', 'mimeType=%20']) {
        expectError(await t.request('GET', `${api}/media?${query}`, { token: t.adminToken }), 400, 'VALIDATION_ERROR');
      }
    });

    it('changes alt, caption and dimensions, and nothing else', async () => {
      const item = await uploadMedia(t, await testImage(20, 10), { filename: 'describe.jpg' });
      const updated = expectSuccess(await t.request('PUT', `${api}/media/${item.id}`, { token: writerToken, body: { alt: 'Alt', caption: 'Cap', width: 40, height: 20 } })).item;
      expect(updated).toMatchObject({ ...item, alt: 'Alt', caption: 'Cap', width: 40, height: 20, updatedAt: expect.any(String) });
      const cleared = expectSuccess(await t.request('PUT', `${api}/media/${item.id}`, { token: writerToken, body: { alt: null } })).item;
      expect(cleared).toMatchObject({ alt: null, caption: 'Cap' });
      expect(expectSuccess(await t.request('GET', `${api}/media/${item.id}`, { token: writerToken })).item).toEqual(cleared);
      expect(issuePaths(await t.request('PUT', `${api}/media/${item.id}`, { token: writerToken, body: { width: 0 } }))).toEqual(['width']);
      expect(issuePaths(await t.request('PUT', `${api}/media/${item.id}`, { token: writerToken, body: { width: 1.5, height: 'x' } }))).toEqual(['width', 'height']);
      expect(issuePaths(await t.request('PUT', `${api}/media/${item.id}`, { token: writerToken, body: { filename: 'new.jpg' } }))).toEqual(['filename']);
      expectError(await t.request('PUT', `${api}/media/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { token: writerToken, body: { alt: 'x' } }), 404, 'NOT_FOUND');
    });

    it('deletes the record, its file and its derived images', async () => {
      const item = await uploadMedia(t, await testImage(200, 100), { filename: 'doomed.jpg' });
      expect((await getFile(t, `${item.url}?w=50`)).status).toBe(200);
      const ownKeys = async () => (await storage.keys()).filter((key) => key === item.storageKey || key.startsWith(`_derived/${item.id}/`));
      expect(await ownKeys()).toHaveLength(2);
      expect(expectSuccess(await t.request('DELETE', `${api}/media/${item.id}`, { token: writerToken }))).toEqual({ success: true, id: item.id });
      expect(await ownKeys()).toEqual([]);
      expectError(await t.request('GET', `${api}/media/${item.id}`, { token: writerToken }), 404, 'NOT_FOUND');
      expectError(await getFile(t, item.url), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', `${api}/media/${item.id}`, { token: writerToken }), 404, 'NOT_FOUND');
    });

    it('needs a token (401) and the scope (403) for every record endpoint', async () => {
      const item = await uploadMedia(t, await testImage(4, 4, 'webp'), { filename: 'guard.webp', type: 'image/webp' });
      const noScope = (await t.userWithToken(40, ['content:read'])).token;
      const reads: [string, string][] = [['GET', `${api}/media`], ['GET', `${api}/media/${item.id}`]];
      const writes: [string, string, unknown][] = [
        ['PUT', `${api}/media/${item.id}`, { alt: 'x' }],
        ['DELETE', `${api}/media/${item.id}`, undefined],
        ['POST', `${api}/media`, { filename: 'a.jpg', mimeType: 'image/jpeg', size: 10, storageKey: 'a/b.jpg' }],
        ['POST', `${api}/media/upload-url`, { filename: 'a.jpg', mimeType: 'image/jpeg', size: 10 }],
      ];
      for (const [method, path] of reads) {
        expectError(await t.request(method, path), 401, 'UNAUTHORIZED');
        expect(expectError(await t.request(method, path, { token: noScope }), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'media:read' });
      }
      for (const [method, path, body] of writes) {
        expectError(await t.request(method, path, { body }), 401, 'UNAUTHORIZED');
        expect(expectError(await t.request(method, path, { token: readerToken, body }), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'media:write' });
      }
    });

    it('lets the public read records while publicRead is on', async () => {
      const item = await uploadMedia(t, await testImage(5, 5, 'png'), { filename: 'public.png', type: 'image/png' });
      expectSuccess(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { publicRead: true } }));
      try {
        expect(expectSuccess(await t.request('GET', `${api}/media/${item.id}`)).item.id).toBe(item.id);
        expectError(await t.request('DELETE', `${api}/media/${item.id}`), 401, 'UNAUTHORIZED');
      } finally {
        expectSuccess(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { publicRead: false } }));
      }
    });
  });

  if (backend === 's3') {
    it('points URLs at S3_PUBLIC_URL, and redirects to a presigned GET with S3_SERVE=redirect', async () => {
      const t2 = await createTestApp({ ...storage.env, S3_PUBLIC_URL: 'https://cdn.example.com/media', S3_SERVE: 'redirect' });
      try {
        const bytes = await testImage(12, 12);
        const item = await uploadMedia(t2, bytes, { filename: 'cdn.jpg' });
        expect(item.url).toBe(`https://cdn.example.com/media/${item.storageKey}`);
        const response = await t2.request('GET', `${api}/media/file/${item.storageKey}`);
        expect(response.status).toBe(302);
        expect(response.headers.get('cache-control')).toBe('no-store');
        const location = response.headers.get('location')!;
        expect(new URL(location).pathname).toBe(`/folio-test/${item.storageKey}`);
        const fetched = await fetch(location);
        expect(fetched.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''cdn.jpg");
        expect(sha256(Buffer.from(await fetched.arrayBuffer()))).toBe(sha256(bytes));
      } finally {
        await t2.close();
      }
    });
  }

  describe('image transforms', () => {
    let item: { id: string; url: string };
    beforeAll(async () => {
      item = await uploadMedia(t, await testImage(1200, 800), { filename: 'large.jpg' });
    });

    it('resizes and converts, then serves the stored derivative', async () => {
      const first = await getFile(t, `${item.url}?w=320&format=webp`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/webp');
      expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await sharp(first.bytes).metadata()).toMatchObject({ format: 'webp', width: 320, height: 213 });
      const again = await getFile(t, `${item.url}?w=320&format=webp`);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await sharp((await getFile(t, `${item.url}?w=100&h=100&fit=cover&format=png`)).bytes).metadata()).toMatchObject({ format: 'png', width: 100, height: 100 });
      expect(await sharp((await getFile(t, `${item.url}?w=100&h=100&fit=inside`)).bytes).metadata()).toMatchObject({ format: 'jpeg', width: 100, height: 67 });
      expect(await sharp((await getFile(t, `${item.url}?w=100&h=100&fit=contain&format=avif&q=40`)).bytes).metadata()).toMatchObject({ format: 'heif', width: 100, height: 100 });
    });

    it('renders a variant once for concurrent first requests', async () => {
      const url = `${item.url}?w=200&format=webp&q=61`;
      const responses = await Promise.all(Array.from({ length: 6 }, () => getFile(t, url)));
      expect(new Set(responses.map((response) => response.status))).toEqual(new Set([200]));
      expect(new Set(responses.map((response) => response.headers.get('etag'))).size).toBe(1);
      expect((await storage.keys()).filter((key) => key.startsWith(`_derived/${item.id}/`) && key.includes('q61'))).toHaveLength(1);
    });

    it('stores at most 64 variants of one file, then refuses new ones and still serves the old', async () => {
      const small = await uploadMedia(t, await testImage(80, 60), { filename: 'many.jpg' });
      for (let width = 1; width <= 64; width += 1) {
        // Past the cap on new variants of one file per window (transform-limits.ts), the next window allows more.
        if (width % 20 === 0) t.clock.advance(10 * 60_000);
        expect((await getFile(t, `${small.url}?w=${width}`)).status).toBe(200);
      }
      expect(issuePaths(await getFile(t, `${small.url}?w=65`))).toEqual(['w']);
      expect((await getFile(t, `${small.url}?w=7`)).status).toBe(200);
    });

    it('refuses parameters out of range and transforms of what is not an image', async () => {
      for (const query of ['w=0', 'w=4097', 'h=-1', 'w=abc', 'w=1.5', 'q=0', 'q=101', 'fit=fill', 'format=gif']) {
        expectError(await getFile(t, `${item.url}?${query}`), 400, 'VALIDATION_ERROR');
      }
      const text = await uploadMedia(t, new TextEncoder().encode('words and words'), { filename: 'words.txt', type: 'text/plain' });
      expectError(await getFile(t, `${text.url}?w=100`), 400, 'VALIDATION_ERROR');
    });
  });
});
