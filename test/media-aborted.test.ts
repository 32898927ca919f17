import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { api, startTestStorage, storageBackends, type TestStorage } from './support/media.ts';
import { spawnServer, type ServerProcess } from './support/process.ts';

/** An upload whose client hangs up half-way leaves no record and no file (issue 9), on each backend. */
describe.each(storageBackends)('an upload cut off half-way, on %s storage', (backend) => {
  let t: TestApp;
  let storage: TestStorage;
  let server: ServerProcess;
  let url: URL;
  beforeAll(async () => {
    storage = await startTestStorage(backend);
    t = await createTestApp(storage.env);
    server = spawnServer({ ...storage.env, DATABASE_URL: t.database.url, PORT: '0', LOG_LEVEL: 'debug', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
    url = new URL(String((await server.waitForLog((line) => line.msg === 'folio listening')).url));
  });
  afterAll(async () => {
    await server.kill();
    await t.close();
    await storage.close();
  });

  /** Sends the head and the first `sent` bytes of a multipart upload announcing `announced` bytes, then hangs up. */
  function hangUpDuringUpload(requestId: string, announced: number, sent: number): Promise<void> {
    const boundary = 'cutoff';
    const preamble = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="cut.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4\n`;
    const head = [
      `POST ${api}/media/upload HTTP/1.1`,
      `Host: ${url.host}`,
      `X-Request-Id: ${requestId}`,
      `Authorization: Bearer ${t.adminToken}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${announced}`,
      '',
      '',
    ].join('\r\n');
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(head + preamble);
        socket.write(Buffer.alloc(sent, 0x41), () => {
          socket.destroy();
          resolve();
        });
      });
      socket.once('error', reject);
    });
  }

  it('leaves no record and no file, whether cut in the head of the file or well past it', async () => {
    const before = await storage.keys();
    for (const [requestId, sent] of [['cut-early', 1000], ['cut-late', 3 * 1024 * 1024]] as const) {
      await hangUpDuringUpload(requestId, 12 * 1024 * 1024, sent);
      const done = await server.waitForLog((line) => line.msg === 'request' && line.requestId === requestId);
      expect(done.status).toBe(499);
    }
    expect(server.logs.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
    expect(await storage.keys()).toEqual(before);
    expect(expectSuccess(await t.request('GET', `${api}/media`, { token: t.adminToken })).items).toEqual([]);
  });
});
