import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.ts';
import { spawnServer, type ServerProcess } from './support/process.ts';

/** Sends the start of a request on a raw socket, then hangs up once the server has taken the connection. */
function sendHalfAndHangUp(url: string, head: string, partialBody: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(head + partialBody, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.once('error', reject);
  });
}

describe('a client that hangs up half-way through its request body', () => {
  let t: TestApp;
  let server: ServerProcess;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    server = spawnServer({ DATABASE_URL: t.database.url, PORT: '0', LOG_LEVEL: 'debug', MEDIA_DIR: '/tmp/folio-test-media' });
    url = String((await server.waitForLog((line) => line.msg === 'folio listening')).url);
  });
  afterAll(async () => {
    await server.kill();
    await t.close();
  });

  /** Once the request's own log line is out: no error anywhere, and a debug line for the hang-up. */
  async function expectLoggedAsAborted(path: string) {
    const done = await server.waitForLog((line) => line.msg === 'request' && line.path === path);
    expect(server.logs.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
    expect(server.logs).toContainEqual(expect.objectContaining({ requestId: done.requestId, level: 20, msg: 'request aborted by the client' }));
    expect(done.status).toBe(499);
  }

  it('is logged at debug as an aborted request, not as an error (unauthenticated chunked body)', async () => {
    const path = '/_cms/api/schema/collections';
    const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    await sendHalfAndHangUp(url, head, '8\r\n{"slug":');
    await expectLoggedAsAborted(path);
  });

  it('is logged the same way when the MCP endpoint is reading the body', async () => {
    const path = '/_cms/api/mcp';
    const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.adminToken}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    await sendHalfAndHangUp(url, head, '{"jsonrpc":"2.0","id":1,');
    await expectLoggedAsAborted(path);
  });
});
