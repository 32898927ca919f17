import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutgoingError, outgoingBuffer, outgoingRequest, outgoingUrlProblem, type OutgoingOptions } from '../src/net/outgoing.ts';

/**
 * The guarded client every outgoing request uses (src/net/outgoing.ts), against real servers on
 * loopback: 127.0.0.1 plays an allowed host and 127.0.0.2 (loopback too, on Linux) one that is not.
 */
describe('outgoing requests', () => {
  const servers: http.Server[] = [];
  let allowed: string;
  let other: string;
  const received: { method: string; body: string }[] = [];

  async function serve(host: string, handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    other = await serve('127.0.0.2', (_request, response) => response.end('inside'));
    allowed = await serve('127.0.0.1', (request, response) => {
      const url = new URL(request.url!, 'http://x');
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ method: request.method!, body });
        const hops = Number(url.searchParams.get('hops') ?? 0);
        if (url.pathname === '/redirect' && hops > 0) response.writeHead(302, { location: `/redirect?hops=${hops - 1}` }).end();
        else if (url.pathname === '/redirect') response.end('arrived');
        else if (url.pathname === '/outside') response.writeHead(307, { location: `${other}/` }).end();
        else if (url.pathname === '/big') response.end('x'.repeat(10_000));
        else if (url.pathname === '/hang') response.writeHead(200).write('partial');
        else response.end(`hello ${request.headers['user-agent']}`);
      });
    });
  });
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const open: OutgoingOptions = { timeoutMs: 5_000, allowPrivate: false, allowAddresses: ['127.0.0.1'] };

  async function failure(promise: Promise<unknown>): Promise<OutgoingError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutgoingError);
    return error as OutgoingError;
  }

  it('fetches from an allowed address, saying who asks', async () => {
    const response = await outgoingBuffer(`${allowed}/`, open);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toMatch(/^hello Folio\//);
  });

  it('refuses loopback and private addresses unless allowed, by address and by name', async () => {
    expect((await failure(outgoingBuffer(`${other}/`, open))).reason).toBe('refused-address');
    const port = new URL(allowed).port;
    expect((await failure(outgoingBuffer(`http://localhost:${port}/`, { timeoutMs: 5_000, allowPrivate: false })))).toMatchObject({ reason: 'refused-address' });
    expect((await outgoingBuffer(`${other}/`, { timeoutMs: 5_000, allowPrivate: true })).body.toString()).toBe('inside');
  });

  it('follows redirects when asked, at most the given number, each checked again', async () => {
    const followed = await outgoingBuffer(`${allowed}/redirect?hops=3`, { ...open, maxRedirects: 5 });
    expect(followed).toMatchObject({ status: 200, url: `${allowed}/redirect?hops=0` });
    expect((await failure(outgoingBuffer(`${allowed}/redirect?hops=6`, { ...open, maxRedirects: 5 }))).reason).toBe('too-many-redirects');
    expect((await outgoingBuffer(`${allowed}/redirect?hops=1`, open)).status).toBe(302);
    // A redirect to an address the guard refuses is refused when connecting to it.
    expect((await failure(outgoingBuffer(`${allowed}/outside`, { ...open, maxRedirects: 5 }))).reason).toBe('refused-address');
  });

  it('cuts off large answers and slow ones', async () => {
    expect((await failure(outgoingBuffer(`${allowed}/big`, { ...open, maxBytes: 5_000 }))).reason).toBe('too-large');
    expect((await outgoingBuffer(`${allowed}/big`, { ...open, maxBytes: 10_000 })).body.length).toBe(10_000);
    const started = await outgoingRequest(`${allowed}/hang`, { ...open, timeoutMs: 300 });
    expect(started.status).toBe(200);
    const reading = (async () => {
      for await (const chunk of started.body) void chunk;
    })();
    expect((await failure(reading)).reason).toBe('timeout');
  });

  it('judges a URL to be stored by the addresses its host has now', async () => {
    expect(await outgoingUrlProblem('http://127.0.0.1:9/hook', false)).toMatch(/^127\.0\.0\.1 is not a public address/);
    expect(await outgoingUrlProblem('http://[::ffff:10.0.0.1]/hook', false)).toMatch(/is not a public address/);
    expect(await outgoingUrlProblem('http://169.254.169.254/latest', false)).toMatch(/is not a public address/);
    expect(await outgoingUrlProblem('http://localhost:9/hook', false)).toMatch(/^localhost \((127\.0\.0\.1|::1)\) is not a public address/);
    expect(await outgoingUrlProblem('https://93.184.215.14/hook', false)).toBeUndefined();
    expect(await outgoingUrlProblem('http://127.0.0.1:9/hook', true)).toBeUndefined();
    expect(await outgoingUrlProblem('mailto:a@example.com', true)).toMatch(/not an http\(s\) URL/);
  });

  it('posts a body, and refuses what is not an http(s) URL', async () => {
    await outgoingBuffer(`${allowed}/hook`, { ...open, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(received.at(-1)).toEqual({ method: 'POST', body: '{"a":1}' });
    expect((await failure(outgoingBuffer('ftp://example.com/', open))).reason).toBe('invalid-url');
    expect((await failure(outgoingBuffer('http://user:pw@example.com/', open))).reason).toBe('invalid-url');
  });
});
