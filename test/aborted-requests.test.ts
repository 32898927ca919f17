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

  /** Sends the head of a POST (with a request id of its own) and part of its body, hangs up, and returns the request's log line. */
  async function hangUpDuring(path: string, headers: string, partialBody: string, requestId: string) {
    const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: ${requestId}\r\nContent-Type: application/json\r\n${headers}\r\n`;
    await sendHalfAndHangUp(url, head, partialBody);
    return server.waitForLog((line) => line.msg === 'request' && line.requestId === requestId);
  }

  const errorLines = () => server.logs.filter((line) => (line.level ?? 0) >= 50);
  const abortedLine = (requestId: string) => expect.objectContaining({ requestId, level: 20, msg: 'request aborted by the client' });
  const chunked = 'Transfer-Encoding: chunked\r\n';

  it('is logged at debug as an aborted request, not as an error, while a route reads a chunked body', async () => {
    const done = await hangUpDuring('/_cms/api/schema/collections', `Authorization: Bearer ${t.adminToken}\r\n${chunked}`, '8\r\n{"slug":', 'abort-rest');
    expect(errorLines()).toEqual([]);
    expect(server.logs).toContainEqual(abortedLine('abort-rest'));
    expect(done.status).toBe(499);
  });

  it('is logged the same way when the MCP endpoint is reading the body', async () => {
    const done = await hangUpDuring('/_cms/api/mcp', `Authorization: Bearer ${t.adminToken}\r\nContent-Length: 200\r\n`, '{"jsonrpc":"2.0","id":1,', 'abort-mcp');
    expect(errorLines()).toEqual([]);
    expect(server.logs).toContainEqual(abortedLine('abort-mcp'));
    expect(done.status).toBe(499);
  });

  it('cannot be caused without a credential: the body is not read before authentication', async () => {
    const done = await hangUpDuring('/_cms/api/schema/collections', chunked, '8\r\n{"slug":', 'abort-anonymous');
    expect(errorLines()).toEqual([]);
    expect(done.status).toBe(401);
  });
});
