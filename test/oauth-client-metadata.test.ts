import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeInBrowser, postForm, signedInUser, startOAuthServer, type OAuthServer } from './support/oauth.ts';

/**
 * Client-ID metadata documents: the client_id is the URL of a JSON document the test serves on
 * loopback (which the deployment allows here), fetched with no redirects, a size limit and caching.
 */
let server: OAuthServer;
let guarded: OAuthServer;
let fixtures: http.Server;
let fixtureOrigin: string;
const hits: Record<string, number> = {};

function documentFor(path: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({ client_id: `${fixtureOrigin}${path}`, client_name: 'Metadata client', redirect_uris: ['http://127.0.0.1:9999/callback'], ...overrides });
}

beforeAll(async () => {
  fixtures = http.createServer((request, response) => {
    const path = request.url ?? '';
    hits[path] = (hits[path] ?? 0) + 1;
    const json = (body: string, headers: Record<string, string> = {}) => response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body);
    if (path === '/client.json') json(documentFor(path), { 'cache-control': 'max-age=60' });
    else if (path === '/redirect.json') response.writeHead(302, { location: '/client.json' }).end();
    else if (path === '/large.json') json(documentFor(path, { padding: 'x'.repeat(10_000) }));
    else if (path === '/other-id.json') json(documentFor('/client.json'));
    else if (path === '/no-name.json') json(documentFor(path, { client_name: undefined }));
    else if (path === '/secret.json') json(documentFor(path, { token_endpoint_auth_method: 'client_secret_basic' }));
    else if (path === '/bad-redirect.json') json(documentFor(path, { redirect_uris: ['http://attacker.example/cb'] }));
    else if (path === '/not-json') response.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    // Headers, then a byte now and then, never the end: cut off by the fetch's deadline.
    else if (path === '/slow.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => response.write(' '), 500);
      response.on('close', () => clearInterval(drip));
    }
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', () => resolve()));
  fixtureOrigin = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
  server = await startOAuthServer({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
  guarded = await startOAuthServer();
});
afterAll(async () => {
  await server?.close();
  await guarded?.close();
  await new Promise<void>((resolve) => fixtures.close(() => resolve()));
});

async function authorizeUrl(target: OAuthServer, clientId: string): Promise<{ url: string; verifier: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:9999/callback',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: 'content:read',
  });
  return { url: `${target.origin}/_cms/oauth/authorize?${params}`, verifier };
}

describe('a client identified by its metadata document', () => {
  it('is fetched, shown by name on the consent page, cached per its headers, and gets tokens', async () => {
    const clientId = `${fixtureOrigin}/client.json`;
    const user = await signedInUser(server.t, 30);
    const { url, verifier } = await authorizeUrl(server, clientId);
    const page = await (await fetch(url, { headers: { cookie: user.cookie } })).text();
    expect(page).toContain('<strong id="client-name">Metadata client</strong>');
    expect(page).toContain('<strong id="redirect-host">127.0.0.1:9999</strong>');
    const redirect = await authorizeInBrowser(server, user.cookie, url);
    const tokens = await postForm(`${server.origin}/_cms/api/oauth/token`, { grant_type: 'authorization_code', client_id: clientId, code: redirect.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:9999/callback', code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(hits['/client.json']).toBe(1);
    server.t.clock.advance(61_000);
    // Asked again (a loopback redirect: any program here could be the one asking), after fetching the stale document again.
    const again = await fetch(url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('<strong id="client-name">Metadata client</strong>');
    expect(hits['/client.json']).toBe(2);
  });

  it('shows the host its document came from beside the name it gives itself, and warns that the answer goes to this computer', async () => {
    const user = await signedInUser(server.t, 30);
    const { url } = await authorizeUrl(server, `${fixtureOrigin}/client.json`);
    const page = await (await fetch(url, { headers: { cookie: user.cookie } })).text();
    expect(page).toContain(`<strong id="client-name">Metadata client</strong> (as described by <strong id="client-host">${new URL(fixtureOrigin).host}</strong>)`);
    expect(page).toMatch(/<p class="warning" role="alert" id="local-redirect">The answer goes to a program on this computer \(127\.0\.0\.1:9999\)/);
    const device = await postForm(`${server.origin}/_cms/api/oauth/device/code`, { client_id: `${fixtureOrigin}/client.json`, scope: 'content:read' });
    const devicePage = await (await fetch(device.body.verification_uri_complete, { headers: { cookie: user.cookie } })).text();
    expect(devicePage).toContain(`<strong id="client-name">Metadata client</strong> (as described by <strong id="client-host">${new URL(fixtureOrigin).host}</strong>)`);
  });

  it.each([
    ['/redirect.json', 'redirects'],
    ['/large.json', 'is larger than 5120 bytes'],
    ['/other-id.json', 'is not its URL'],
    ['/no-name.json', 'client_name'],
    ['/secret.json', 'public clients only'],
    ['/bad-redirect.json', 'http is allowed only on loopback'],
    ['/not-json', 'is not JSON'],
    ['/missing.json', 'answered HTTP 404'],
    ['/slow.json', 'took too long to answer'],
  ])('%s is refused (%s), and nothing is granted', async (path, reason) => {
    const user = await signedInUser(server.t, 30);
    const { url } = await authorizeUrl(server, `${fixtureOrigin}${path}`);
    const response = await fetch(url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain(reason);
    const device = await postForm(`${server.origin}/_cms/api/oauth/device/code`, { client_id: `${fixtureOrigin}${path}` });
    expect(device.status).toBe(401);
    expect(device.body.error).toBe('invalid_client');
    expect(await server.t.db.kysely.selectFrom('oauth_grants').selectAll().where('user_id', '=', user.userId).execute()).toEqual([]);
  });
});

describe('without OUTGOING_ALLOW_PRIVATE_ADDRESSES', () => {
  it('refuses documents on private addresses (written or resolved) and over plain http, before any request', async () => {
    const user = await signedInUser(guarded.t, 30);
    const before = hits['/client.json'] ?? 0;
    const port = new URL(fixtureOrigin).port;
    for (const [clientId, reason] of [
      [`https://127.0.0.1:${port}/client.json`, 'points at a private address'],
      [`https://localhost:${port}/client.json`, 'points at a private address'],
      [`https://[::1]:${port}/client.json`, 'points at a private address'],
      [`https://10.0.0.1/client.json`, 'points at a private address'],
      [`${fixtureOrigin}/client.json`, 'must be served over https'],
    ]) {
      const { url } = await authorizeUrl(guarded, clientId!);
      const response = await fetch(url, { headers: { cookie: user.cookie }, redirect: 'manual' });
      expect(response.status, clientId).toBe(400);
      expect(await response.text(), clientId).toContain(reason);
    }
    expect(hits['/client.json'] ?? 0).toBe(before);
  });
});
