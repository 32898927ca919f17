import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/core/errors.ts';
import { access, defineOperation } from '../src/core/operation.ts';
import type { ByteSource } from '../src/core/results.ts';
import type { MultipartBody } from '../src/http/body.ts';
import { defineRoute } from '../src/http/route.ts';
import { createTestApp, expectError, issuePaths, type TestApp } from './support/harness.ts';

/**
 * The route shapes other areas build on (uploads, file serving, import progress, OAuth forms, pages),
 * exercised through routes declared here the way areas declare theirs, served by the real app.
 */
const base = '/_cms/api/test-kinds';
const tag = 'Test';
const uploadLimit = 64 * 1024;

const upload = defineOperation({
  name: 'test.upload',
  access: access.scope('content:write'),
  run: async (_ctx, input: { body: MultipartBody }) => {
    const fields: Record<string, string> = {};
    const files: { name: string; filename: string; mimeType: string; size: number; sha256: string }[] = [];
    for await (const part of input.body) {
      if (part.kind === 'field') {
        fields[part.name] = part.value;
        continue;
      }
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of part.stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        hash.update(chunk);
      }
      files.push({ name: part.name, filename: part.filename, mimeType: part.mimeType, size, sha256: hash.digest('hex') });
    }
    return { fields, files };
  },
});

const fileBytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
const fileEtag = createHash('sha256').update(fileBytes).digest('hex').slice(0, 16);
const download = defineOperation({
  name: 'test.download',
  access: access.public,
  run: async (): Promise<ByteSource> => ({
    contentType: 'application/octet-stream',
    size: fileBytes.length,
    etag: fileEtag,
    disposition: 'attachment',
    filename: 'numbers é.bin',
    open: (range) => Readable.from([range ? fileBytes.subarray(range.start, range.end + 1) : fileBytes]),
  }),
});

const LinesQuery = z.strictObject({ count: z.coerce.number().int().min(0), failAt: z.coerce.number().int().min(0).optional() });
const lines = defineOperation({
  name: 'test.lines',
  access: access.public,
  run: async (_ctx, input: z.output<typeof LinesQuery>) => ({
    async *progress() {
      for (let index = 0; index < input.count; index += 1) {
        if (index === input.failAt) throw new AppError('CONFLICT', `Line ${index} could not be made`);
        yield { line: index };
      }
    },
  }),
});

const page = defineOperation({
  name: 'test.page',
  access: access.public,
  run: async (_ctx, input: { name: string }) => ({ greeting: `Hello, ${input.name}` }),
});

const FormBody = z.strictObject({ grant_type: z.literal('authorization_code'), code: z.string().min(1) });
const form = defineOperation({
  name: 'test.form',
  access: access.public,
  run: async (_ctx, input: z.output<typeof FormBody>) => ({ received: input.code }),
});

const routes = [
  defineRoute({
    method: 'post',
    path: '/test-kinds/upload',
    tag,
    summary: 'A multipart upload',
    operation: upload,
    body: { multipart: { limit: uploadLimit, parts: { file: 'file', alt: 'text' } } },
    input: ({ body }) => ({ body }),
    response: z.unknown(),
    status: 201,
  }),
  defineRoute({
    method: 'get',
    path: '/test-kinds/file',
    tag,
    summary: 'A file',
    operation: download,
    result: { kind: 'bytes', source: (file) => file, cacheControl: 'public, max-age=31536000, immutable' },
  }),
  defineRoute({
    method: 'get',
    path: '/test-kinds/lines',
    tag,
    summary: 'Progress lines',
    operation: lines,
    query: LinesQuery,
    result: { kind: 'ndjson', line: z.object({ line: z.number() }), lines: (output) => output.progress() },
  }),
  defineRoute({
    method: 'get',
    path: '/test-kinds/page/:name',
    tag,
    summary: 'A page',
    operation: page,
    params: z.strictObject({ name: z.string() }),
    result: { kind: 'html', render: (output) => `<!doctype html><p>${output.greeting.replace(/</g, '&lt;')}</p>` },
  }),
  defineRoute({
    method: 'get',
    path: '/test-kinds/go/:name',
    tag,
    summary: 'A redirect',
    operation: page,
    params: z.strictObject({ name: z.string() }),
    result: { kind: 'redirect', location: (output) => `/welcome?to=${encodeURIComponent(output.greeting)}`, status: 303 },
  }),
  defineRoute({
    method: 'post',
    path: '/test-kinds/form',
    tag,
    summary: 'A form',
    operation: form,
    body: { form: FormBody, limit: 2048 },
    result: { kind: 'json', schema: z.object({ received: z.string() }), cacheControl: 'no-store' },
  }),
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { routes });
});
afterAll(() => t.close());

function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]): { body: Buffer; type: string } {
  const boundary = `----folio${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** A body that arrives as a stream without Content-Length (chunked), counting what was pulled from it. */
function chunkedBody(total: number, chunkSize: number) {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunkSize, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return { stream, sent: () => sent };
}

describe('multipart bodies', () => {
  it('streams the parts to the operation', async () => {
    const content = Buffer.alloc(40 * 1024, 7);
    const { body, type } = multipart([
      { name: 'alt', value: 'A picture' },
      { name: 'file', value: content, filename: 'seven.bin', type: 'application/octet-stream' },
    ]);
    const response = await t.request('POST', `${base}/upload`, { token: t.adminToken, rawBody: body, headers: { 'content-type': type } });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      fields: { alt: 'A picture' },
      files: [{ name: 'file', filename: 'seven.bin', mimeType: 'application/octet-stream', size: content.length, sha256: createHash('sha256').update(content).digest('hex') }],
    });
  });

  it('refuses a declared length over the route limit with 413 before reading it', async () => {
    const { body, type } = multipart([{ name: 'file', value: Buffer.alloc(uploadLimit + 10), filename: 'big.bin' }]);
    const error = expectError(await t.request('POST', `${base}/upload`, { token: t.adminToken, rawBody: body, headers: { 'content-type': type } }), 413, 'PAYLOAD_TOO_LARGE');
    expect(error.details.limit).toBe(uploadLimit);
  });

  it('stops a chunked body at the limit with 413, without reading the rest', async () => {
    const { body: head, type } = multipart([{ name: 'file', value: Buffer.alloc(0), filename: 'endless.bin' }]);
    const opening = head.subarray(0, head.indexOf('\r\n--', 10) + 0);
    const endless = chunkedBody(10 * uploadLimit, 4096);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(opening));
      },
      async pull(controller) {
        const reader = endless.stream.getReader();
        const { value, done } = await reader.read();
        reader.releaseLock();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    });
    expectError(await t.request('POST', `${base}/upload`, { token: t.adminToken, rawBody: stream, headers: { 'content-type': type } }), 413, 'PAYLOAD_TOO_LARGE');
    expect(endless.sent()).toBeLessThan(3 * uploadLimit);
  });

  it('refuses another content type with 415, and a caller without a token with 401', async () => {
    expectError(await t.request('POST', `${base}/upload`, { token: t.adminToken, body: { file: 'x' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const { body, type } = multipart([{ name: 'alt', value: 'x' }]);
    expectError(await t.request('POST', `${base}/upload`, { rawBody: body, headers: { 'content-type': type } }), 401, 'UNAUTHORIZED');
    const reader = await t.userWithToken(10, ['content:read']);
    expectError(await t.request('POST', `${base}/upload`, { token: reader.token, rawBody: body, headers: { 'content-type': type } }), 403, 'FORBIDDEN');
  });

  it('is described as multipart in the OpenAPI document', async () => {
    const document = (await t.request('GET', '/_cms/api/openapi.json')).body;
    const operation = document.paths[`${base}/upload`].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(operation.requestBody.content['multipart/form-data'].schema.properties)).toEqual(['file', 'alt']);
  });
});

describe('byte streams', () => {
  it('sends the whole file with its caching headers', async () => {
    const response = await t.request('GET', `${base}/file`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('1000');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('etag')).toBe(`"${fileEtag}"`);
    expect(response.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''numbers%20%C3%A9.bin");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(response.body, 'latin1').length).toBeGreaterThan(0);
  });

  it('answers a Range with 206 and exactly those bytes', async () => {
    const response = await t.request('GET', `${base}/file`, { headers: { range: 'bytes=10-19' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(response.headers.get('content-length')).toBe('10');
    expect([...Buffer.from(response.body, 'latin1')]).toEqual([...fileBytes.subarray(10, 20)]);

    const suffix = await t.request('GET', `${base}/file`, { headers: { range: 'bytes=-5' } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe('bytes 995-999/1000');
  });

  it('answers 416 for a range outside the file, and the whole file for a stale If-Range', async () => {
    const outside = await t.request('GET', `${base}/file`, { headers: { range: 'bytes=5000-6000' } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe('bytes */1000');
    const stale = await t.request('GET', `${base}/file`, { headers: { range: 'bytes=0-9', 'if-range': '"older"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-length')).toBe('1000');
  });

  it('answers 304 when If-None-Match holds', async () => {
    const response = await t.request('GET', `${base}/file`, { headers: { 'if-none-match': `"other", "${fileEtag}"` } });
    expect(response.status).toBe(304);
    expect(response.body).toBe('');
    expect((await t.request('GET', `${base}/file`, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });
});

describe('NDJSON streams', () => {
  it('sends one JSON value per line', async () => {
    const response = await t.request('GET', `${base}/lines?count=3`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.body.trimEnd().split('\n').map((line: string) => JSON.parse(line))).toEqual([{ line: 0 }, { line: 1 }, { line: 2 }]);
  });

  it('ends with an error line when it fails after the first line', async () => {
    const response = await t.request('GET', `${base}/lines?count=5&failAt=2`);
    expect(response.status).toBe(200);
    const received = response.body.trimEnd().split('\n').map((line: string) => JSON.parse(line));
    expect(received).toEqual([{ line: 0 }, { line: 1 }, { success: false, error: { code: 'CONFLICT', message: 'Line 2 could not be made', details: {} } }]);
  });

  it('is an ordinary error response when it fails before the first line', async () => {
    expectError(await t.request('GET', `${base}/lines?count=5&failAt=0`), 409, 'CONFLICT');
    expect(issuePaths(await t.request('GET', `${base}/lines?count=-1`))).toEqual(['count']);
  });
});

describe('pages, redirects and forms', () => {
  it('serves an HTML page with a same-origin Content-Security-Policy', async () => {
    const response = await t.request('GET', `${base}/page/<b>Ada`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.body).toBe('<!doctype html><p>Hello, &lt;b>Ada</p>');
  });

  it('redirects with the declared status', async () => {
    const response = await t.request('GET', `${base}/go/Ada`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/welcome?to=Hello%2C%20Ada');
  });

  it('reads a form body and answers bare JSON', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const response = await t.request('POST', `${base}/form`, { rawBody: 'grant_type=authorization_code&code=abc%20d', headers });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: 'abc d' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(issuePaths(await t.request('POST', `${base}/form`, { rawBody: 'grant_type=authorization_code&code=a&code=b', headers }))).toEqual(['code']);
    expect(issuePaths(await t.request('POST', `${base}/form`, { rawBody: 'grant_type=password&code=a', headers }))).toEqual(['grant_type']);
    expectError(await t.request('POST', `${base}/form`, { body: { grant_type: 'authorization_code', code: 'a' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await t.request('POST', `${base}/form`, { rawBody: `code=${'a'.repeat(3000)}`, headers }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('describes each result kind in the OpenAPI document', async () => {
    const { paths } = (await t.request('GET', '/_cms/api/openapi.json')).body;
    expect(Object.keys(paths[`${base}/file`].get.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416']));
    expect(Object.keys(paths[`${base}/lines`].get.responses['200'].content)).toEqual(['application/x-ndjson']);
    expect(Object.keys(paths[`${base}/page/{name}`].get.responses['200'].content)).toEqual(['text/html']);
    expect(paths[`${base}/go/{name}`].get.responses['303'].headers.Location).toBeDefined();
    expect(Object.keys(paths[`${base}/form`].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(Object.keys(paths['/_cms/api/docs'].get.responses['200'].content)).toEqual(['text/html']);
  });
});
