import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { createTestApp, type TestApp } from './support/harness.ts';
import { api, sha256, startTestStorage, type TestStorage } from './support/media.ts';
import { spawnServer, type LogLine, type ServerProcess } from './support/process.ts';
import { rawHangUp, rawRequest } from './support/raw-http.ts';

/**
 * Requests a hostile or broken client sends, against a real `folio serve` over raw sockets (issue 36):
 * none may end the process, none may store anything, and a client's fault is the client's answer
 * (4xx), never a 500 or an error in the server's log.
 */
const boundary = 'abc';
const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
const pngStart = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Multipart bodies that end where no complete form can. */
const brokenBodies: Record<string, Buffer> = {
  'cut off inside the file': Buffer.concat([Buffer.from(fileHead), pngStart, Buffer.from('xxxx')]),
  'ending mid-header': Buffer.from(`--${boundary}\r\nContent-Disposition: form-da`),
  'ending mid-boundary': Buffer.concat([Buffer.from(fileHead), pngStart, Buffer.from(`\r\n--${boundary.slice(0, 2)}`)]),
  'whose last boundary is never closed': Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nan alt\r\n--${boundary}\r\n`),
};

const multipartEndpoints = ['/media/upload', '/import/legacy/analyze', '/import/legacy/execute'];

describe('hostile requests against a running server', () => {
  let t: TestApp;
  let storage: TestStorage;
  let server: ServerProcess;
  let url: URL;
  let contributor: string;
  beforeAll(async () => {
    storage = await startTestStorage('local');
    t = await createTestApp(storage.env);
    contributor = (await t.userWithToken(roles.contributor, ['media:write', 'content:write'])).token;
    server = spawnServer({ ...storage.env, DATABASE_URL: t.database.url, PORT: '0', LOG_LEVEL: 'debug', PLUGINS: './test/fixtures/plugins/faulty.ts' });
    url = new URL(String((await server.waitForLog((line) => line.msg === 'folio listening')).url));
  });
  afterAll(async () => {
    await server?.kill();
    await t.close();
    await storage.close();
  });

  const send = (path: string, token: string, body: Buffer, requestId: string) =>
    rawRequest(url, 'POST', `${api}${path}`, { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-request-id': requestId }, body);
  /**
   * A request's log lines, once its closing `request` line is in: the server writes them in order, but
   * the test may read its answer before the log pipe has brought them.
   */
  const logsOf = async (requestId: string) => {
    await server.waitForLog((line) => line.msg === 'request' && line.requestId === requestId);
    return server.logs.filter((line) => line.requestId === requestId);
  };
  const isError = (line: LogLine) => (line.level ?? 0) >= 50;

  it('answers every broken multipart body with a 400 (or 403 where the role may not), stores nothing and keeps serving', async () => {
    let n = 0;
    for (const path of multipartEndpoints) {
      for (const [who, token] of [['admin', t.adminToken], ['contributor', contributor]] as const) {
        for (const [shape, body] of Object.entries(brokenBodies)) {
          const requestId = `broken-${++n}`;
          const response = await send(path, token, body, requestId);
          const expected = who === 'contributor' && path.startsWith('/import') ? 403 : 400;
          expect({ path, who, shape, status: response.status, success: response.body.success }).toEqual({ path, who, shape, status: expected, success: false });
          if (expected === 400) expect(response.body.error.code).toBe('VALIDATION_ERROR');
          expect((await logsOf(requestId)).filter(isError)).toEqual([]);
        }
      }
    }
    expect(server.child.exitCode).toBeNull();
    const health = await rawRequest(url, 'GET', `${api}/media`, { authorization: `Bearer ${t.adminToken}` });
    expect(health.status).toBe(200);
    expect(health.body.data.items).toEqual([]);
    expect(await storage.keys()).toEqual([]);
  });

  it('takes a client that hangs up in the middle of a direct upload or a JSON body as a hang-up (499), not an error', async () => {
    const target = await rawRequest(url, 'POST', `${api}/media/upload-url`, { authorization: `Bearer ${contributor}`, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ filename: 'a.png', mimeType: 'image/png', size: 4096 })));
    expect(target.status).toBe(200);
    const uploadPath = new URL(target.body.data.uploadUrl).pathname;
    const cuts = [
      ['hang-up-direct', 'PUT', uploadPath, { 'content-type': 'image/png' }, Buffer.concat([pngStart, Buffer.alloc(100)])],
      ['hang-up-json', 'POST', `${api}/content/posts`, { authorization: `Bearer ${contributor}`, 'content-type': 'application/json' }, Buffer.from('{"data":{"title":"cut')],
    ] as const;
    for (const [requestId, method, path, headers, body] of cuts) {
      await rawHangUp(url, method, path, { ...headers, 'x-request-id': requestId }, 4096, body);
      expect((await server.waitForLog((line) => line.msg === 'request' && line.requestId === requestId)).status).toBe(499);
      expect((await logsOf(requestId)).filter(isError)).toEqual([]);
    }
    expect(server.child.exitCode).toBeNull();
    expect(await storage.keys()).toEqual([]);
  });

  it('reads a JSON body alike whether it comes with its head or in pieces after it', async () => {
    expect((await t.request('POST', `${api}/schema/collections`, { token: t.adminToken, body: { slug: 'notes', label: 'Notes' } })).status).toBe(201);
    expect((await t.request('POST', `${api}/schema/collections/notes/fields`, { token: t.adminToken, body: { slug: 'title', label: 'Title', type: 'string' } })).status).toBe(201);
    const body = Buffer.from(JSON.stringify({ data: { title: 'Crème brûlée, in pieces' } }));
    const headers = { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' };
    const whole = await rawRequest(url, 'POST', `${api}/content/notes`, headers, body);
    // Cut inside the two bytes of "è": the text is decoded from the whole body, never piece by piece.
    const cut = body.indexOf('è') + 1;
    const pieces = await rawRequest(url, 'POST', `${api}/content/notes`, headers, [body.subarray(0, cut), body.subarray(cut)]);
    for (const response of [whole, pieces]) {
      expect(response.status).toBe(201);
      expect(response.body.data.item.data.title).toBe('Crème brûlée, in pieces');
    }
    expect((await t.request('GET', `${api}/content/notes?limit=10`, { token: t.adminToken })).body.data.items).toHaveLength(2);
  });

  it('serves from a process that carries async context in V8 frames, has V8\'s gc and gives freed memory back (bin/server-process.mjs)', () => {
    // The same process id: it replaced itself rather than starting a child a supervisor would not see.
    const commandLine = fs.readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
    if (process.allowedNodeEnvironmentFlags.has('--experimental-async-context-frame')) expect(commandLine).toContain('--experimental-async-context-frame');
    expect(commandLine).toContain('--expose-gc');
    expect(fs.readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_TRIM_THRESHOLD_=131072');
  });

  it('stores a file of many megabytes whole', async () => {
    // Past the step of the server's own collections (4 MiB, src/http/streamed-memory.ts) at least twice.
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(9 * 1024 * 1024 + 12_345)]);
    const body = Buffer.concat([Buffer.from(fileHead.replace('a.png', 'large.pdf').replace('image/png', 'application/pdf')), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const pieces = Array.from({ length: Math.ceil(body.length / 100_003) }, (_, n) => body.subarray(n * 100_003, (n + 1) * 100_003));
    const uploaded = await rawRequest(url, 'POST', `${api}/media/upload`, { authorization: `Bearer ${t.adminToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, pieces);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.data.item).toMatchObject({ mimeType: 'application/pdf', size: bytes.length, filename: 'large.pdf' });
    const served = await fetch(new URL(`${api}/media/file/${uploaded.body.data.item.storageKey}`, url), { headers: { authorization: `Bearer ${t.adminToken}` } });
    expect(served.status).toBe(200);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
    expect((await rawRequest(url, 'DELETE', `${api}/media/${uploaded.body.data.item.id}`, { authorization: `Bearer ${t.adminToken}` })).status).toBe(200);
  });

  it('fails only the request whose code throws outside its promise chain, with a 500 naming the request, and goes on', async () => {
    for (const path of ['stream-handler', 'stream-error', 'rejection']) {
      const requestId = `escaped-${path}`;
      const response = await rawRequest(url, 'POST', `${api}/plugins/faulty/${path}`, { authorization: `Bearer ${t.adminToken}`, 'x-request-id': requestId });
      expect(response.status).toBe(500);
      expect(response.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { requestId } });
      expect((await logsOf(requestId)).some((line) => isError(line) && line.msg === 'unhandled error')).toBe(true);
    }
    expect(server.child.exitCode).toBeNull();
    expect((await rawRequest(url, 'GET', `${api}/settings`, { authorization: `Bearer ${t.adminToken}` })).status).toBe(200);
  });
});
