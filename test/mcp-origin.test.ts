import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerTokens } from '../src/auth/authenticate.ts';
import type { CredentialResolver } from '../src/http/credentials.ts';
import { api, createCollection } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type ApiResponse, type TestApp } from './support/harness.ts';
import { serveMcp, type McpSocket } from './support/mcp.ts';

const mcp = `${api}/mcp`;
const accept = 'application/json, text/event-stream';
const inspector = 'https://inspector.example';

function createArticle(t: TestApp, title: string, headers: Record<string, string>) {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_create', arguments: { collection: 'articles', data: { title } } } };
  return t.request('POST', mcp, { token: t.adminToken, body: call, headers: { accept, ...headers } });
}

async function titles(t: TestApp): Promise<string[]> {
  const data = expectSuccess(await t.request('GET', `${api}/content/articles?status=draft`, { token: t.adminToken }));
  return data.items.map((item: { data: { title: string } }) => item.data.title);
}

function expectRefused(response: ApiResponse, words: string) {
  expect(response.status).toBe(403);
  expect(response.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  expect(response.body.error.message).toContain(words);
}

function expectCreatedByTool(response: ApiResponse) {
  expect(response.status).toBe(200);
  expect(response.body.result.isError).toBeUndefined();
}

describe('MCP Origin and Host validation (DNS rebinding)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: inspector });
    await createCollection(t, 'articles', [{ slug: 'title', type: 'text' }]);
  });
  afterAll(() => t.close());

  it('refuses a foreign Origin with 403 and a JSON-RPC error before anything runs', async () => {
    expectRefused(await createArticle(t, 'From evil', { origin: 'http://evil.example' }), 'http://evil.example');
    // `null` is what sandboxed frames and local files send.
    expectRefused(await createArticle(t, 'From a sandbox', { origin: 'null' }), 'null');
    expect(await titles(t)).not.toContain('From evil');
    expect(await titles(t)).not.toContain('From a sandbox');
  });

  it('refuses before authentication, so a refused page learns nothing about a token', async () => {
    const response = await t.request('POST', mcp, { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept, origin: 'http://evil.example' } });
    expectRefused(response, 'origin');
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('leaves requests without Origin (command-line clients, servers) alone', async () => {
    expectCreatedByTool(await createArticle(t, 'No origin', {}));
    expect(await titles(t)).toContain('No origin');
  });

  it("accepts Folio's own origin, taken from the request's Host without PUBLIC_URL", async () => {
    expectCreatedByTool(await createArticle(t, 'Same origin', { origin: 'http://localhost' }));
    expectRefused(await createArticle(t, 'Other port', { origin: 'http://localhost:8080' }), 'http://localhost:8080');
    expect(await titles(t)).toEqual(expect.arrayContaining(['Same origin']));
    expect(await titles(t)).not.toContain('Other port');
  });

  it('answers the preflight of an allowed origin with the headers the MCP transport needs', async () => {
    const response = await t.request('OPTIONS', mcp, {
      headers: { origin: inspector, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,mcp-protocol-version,mcp-session-id' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(inspector);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.split(',')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id']),
    );
  });

  it('serves an allowed origin and exposes the MCP headers to it', async () => {
    const response = await createArticle(t, 'From the inspector', { origin: inspector });
    expectCreatedByTool(response);
    expect(response.headers.get('access-control-allow-origin')).toBe(inspector);
    const exposed = response.headers.get('access-control-expose-headers')?.toLowerCase().split(',');
    expect(exposed).toEqual(expect.arrayContaining(['www-authenticate', 'mcp-protocol-version', 'mcp-session-id']));
    expect(await titles(t)).toContain('From the inspector');
  });

  it('refuses a Host naming another site while listening on loopback, the rebinding shape', async () => {
    // The page at http://evil.example:3000 whose name now resolves to 127.0.0.1: Origin and Host agree.
    expectRefused(await createArticle(t, 'Rebound', { host: 'evil.example:3000', origin: 'http://evil.example:3000' }), 'evil.example:3000');
    expectRefused(await createArticle(t, 'Rebound without origin', { host: 'evil.example:3000' }), 'evil.example:3000');
    for (const host of ['127.0.0.1:3000', '[::1]:3000', 'LOCALHOST']) expectCreatedByTool(await createArticle(t, `Via ${host}`, { host }));
    const seen = await titles(t);
    expect(seen).not.toContain('Rebound');
    expect(seen).not.toContain('Rebound without origin');
  });
});

describe('MCP origins with PUBLIC_URL, and on a public interface', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://cms.example.com' });
    await createCollection(t, 'articles', [{ slug: 'title', type: 'text' }]);
  });
  afterAll(() => t.close());

  it("takes Folio's own origin from PUBLIC_URL, and answers to its host on loopback (behind a proxy)", async () => {
    expectCreatedByTool(await createArticle(t, 'Public origin', { host: 'cms.example.com', origin: 'https://cms.example.com' }));
    expectRefused(await createArticle(t, 'Plain http', { host: 'cms.example.com', origin: 'http://cms.example.com' }), 'http://cms.example.com');
    expectRefused(await createArticle(t, 'Request host', { origin: 'http://localhost' }), 'http://localhost');
    const seen = await titles(t);
    expect(seen).toContain('Public origin');
    expect(seen).not.toContain('Plain http');
    expect(seen).not.toContain('Request host');
  });

  it('answers to any Host when listening on all interfaces, and still checks the Origin', async () => {
    const open = await createTestApp({ HOST: '0.0.0.0' });
    try {
      await createCollection(open, 'articles', [{ slug: 'title', type: 'text' }]);
      expectCreatedByTool(await createArticle(open, 'Named host', { host: 'cms.internal:3000', origin: 'http://cms.internal:3000' }));
      expectRefused(await createArticle(open, 'Foreign', { host: 'cms.internal:3000', origin: 'http://evil.example' }), 'http://evil.example');
      expect(await titles(open)).toEqual(['Named host']);
    } finally {
      await open.close();
    }
  });
});

describe('MCP origins over a real socket', () => {
  let t: TestApp;
  let socket: McpSocket;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: inspector });
    socket = await serveMcp(t);
  });
  afterAll(async () => {
    await socket.close();
    await t.close();
  });

  it('lets the SDK client work from an allowed origin and refuses it from another', async () => {
    const client = await socket.connect(t.adminToken, { origin: inspector });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('content_create');
    await expect(socket.connect(t.adminToken, { origin: 'http://evil.example' })).rejects.toThrow(/403|origin/i);
  });

  it("reads the Host from the connection's own headers", async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const request = http.request(socket.url, {
        method: 'POST',
        headers: { host: `evil.example:${socket.url.port}`, authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json', accept },
      });
      request.once('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.once('error', reject);
      request.end(body);
    });
    expect(status).toBe(403);
  });
});

describe('the CSRF check of ambient credentials uses the same origin policy', () => {
  // A stand-in for session cookies until sign-in exists: a cookie carrying a token, sent by browsers on their own.
  const cookieTokens: CredentialResolver = {
    name: 'test-cookie',
    ambient: true,
    resolve: (request) => {
      const token = /(?:^|;\s*)folio_test=([^;]+)/.exec(request.header('cookie') ?? '')?.[1];
      return token === undefined ? Promise.resolve(null) : bearerTokens.resolve({ ...request, header: (name) => (name === 'authorization' ? `Bearer ${token}` : request.header(name)) });
    },
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: inspector }, { credentials: [bearerTokens, cookieTokens] });
  });
  afterAll(() => t.close());

  const createFromOrigin = (slug: string, origin: string) =>
    t.request('POST', `${api}/schema/collections`, { body: { slug, label: slug }, headers: { cookie: `folio_test=${t.adminToken}`, origin } });

  it('refuses a state change from a foreign origin and accepts Folio’s own origin and CORS_ORIGINS', async () => {
    expectError(await createFromOrigin('from_evil', 'http://evil.example'), 403, 'FORBIDDEN');
    expect((await createFromOrigin('from_self', 'http://localhost')).status).toBe(201);
    expect((await createFromOrigin('from_inspector', inspector)).status).toBe(201);
    const slugs = expectSuccess(await t.request('GET', `${api}/schema/collections`, { token: t.adminToken })).items.map((item: { slug: string }) => item.slug);
    expect(slugs).toEqual(expect.arrayContaining(['from_self', 'from_inspector']));
    expect(slugs).not.toContain('from_evil');
  });
});
