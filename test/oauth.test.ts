import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authorizeInBrowser, consentRequestId, postForm, signedInUser, startOAuthServer, type OAuthServer } from './support/oauth.ts';

/** OAuth 2.1 against the real server over HTTP, with oauth4webapi as the client. */
let server: OAuthServer;
let as: oauth.AuthorizationServer;
const insecure = { [oauth.allowInsecureRequests]: true };

beforeAll(async () => {
  server = await startOAuthServer();
  const discovered = await oauth.discoveryRequest(new URL(server.issuer), { algorithm: 'oauth2', ...insecure });
  as = await oauth.processDiscoveryResponse(new URL(server.issuer), discovered);
});
afterAll(async () => server?.close());
// Each test starts a new hour: every client here registers from one address, and registration allows 20 an hour.
beforeEach(() => server.t.clock.advance(3_600_000));

async function register(redirectUris = ['http://127.0.0.1:9999/callback'], extra: Record<string, unknown> = {}): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: redirectUris, client_name: 'Test client', ...extra }, insecure);
  const client = await oauth.processDynamicClientRegistrationResponse(response);
  return client as oauth.Client;
}

interface Authorization {
  url: URL;
  verifier: string;
  state: string;
}

async function authorizationRequest(client: oauth.Client, params: Record<string, string> = {}): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: 'http://127.0.0.1:9999/callback',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    scope: 'content:read content:write',
    ...params,
  }).toString();
  return { url, verifier, state };
}

/** Code + PKCE from start to tokens, the person approving. */
async function signIn(client: oauth.Client, cookie: string, params: Record<string, string> = {}): Promise<oauth.TokenEndpointResponse> {
  const request = await authorizationRequest(client, params);
  const redirect = await authorizeInBrowser(server, cookie, request.url.href);
  const callback = oauth.validateAuthResponse(as, client, redirect, request.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, params.redirect_uri ?? 'http://127.0.0.1:9999/callback', request.verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function mcpCall(token: string, method = 'tools/list', params: unknown = {}): Promise<Response> {
  return fetch(server.mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

describe('discovery', () => {
  it('serves both documents at both paths, the issuer byte-identical to authorization_servers, CORS open', async () => {
    const documents = await Promise.all(
      ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/_cms/api/mcp', '/_cms/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/_cms'].map(async (path) => {
        const response = await fetch(server.origin + path, { headers: { origin: 'https://inspector.example' }, redirect: 'manual' });
        expect(response.status, path).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        return { text: await response.clone().text(), json: (await response.json()) as Record<string, unknown> };
      }),
    );
    const [resource, resourceAtPath, authorizationServer, authorizationServerAtPath] = documents;
    expect(resourceAtPath!.text).toBe(resource!.text);
    expect(authorizationServerAtPath!.text).toBe(authorizationServer!.text);
    expect(resource!.json).toEqual({
      resource: server.mcpUrl,
      authorization_servers: [server.issuer],
      scopes_supported: ['content:read', 'content:write', 'media:read', 'media:write', 'schema:read', 'schema:write', 'admin'],
      bearer_methods_supported: ['header'],
    });
    expect(authorizationServer!.json).toEqual({
      issuer: server.issuer,
      authorization_endpoint: `${server.origin}/_cms/oauth/authorize`,
      token_endpoint: `${server.origin}/_cms/api/oauth/token`,
      scopes_supported: ['content:read', 'content:write', 'media:read', 'media:write', 'schema:read', 'schema:write', 'admin'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      device_authorization_endpoint: `${server.origin}/_cms/api/oauth/device/code`,
      registration_endpoint: `${server.origin}/_cms/api/oauth/register`,
      revocation_endpoint: `${server.origin}/_cms/api/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    const preflight = await fetch(`${server.origin}/_cms/api/oauth/token`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const resourceDocument = await oauth.processResourceDiscoveryResponse(new URL(server.mcpUrl), await oauth.resourceDiscoveryRequest(new URL(server.mcpUrl), insecure));
    expect(resourceDocument.authorization_servers).toEqual([as.issuer]);
  });

  it('answers /mcp without a token with 401 naming the resource metadata and the scopes to ask for', async () => {
    const response = await fetch(server.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource", scope="content:read content:write media:read media:write schema:read schema:write"`,
    );
  });
});

describe('MCP 2025-03-26 clients, which look at the root of the MCP URL’s origin', () => {
  it('find the authorization server metadata there, and the /authorize, /token and /register fallbacks work', async () => {
    const atRoot = await fetch(`${server.origin}/.well-known/oauth-authorization-server`);
    expect(atRoot.status).toBe(200);
    expect(await atRoot.text()).toBe(await (await fetch(`${server.origin}/_cms/.well-known/oauth-authorization-server`)).text());
    // Without metadata, such a client takes the endpoints at the root, as its spec derives them.
    const fallback: oauth.AuthorizationServer = { issuer: server.origin, authorization_endpoint: `${server.origin}/authorize`, token_endpoint: `${server.origin}/token`, registration_endpoint: `${server.origin}/register` };
    const client = (await oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(fallback, { redirect_uris: ['http://127.0.0.1:9999/callback'], client_name: 'Older client' }, insecure))) as oauth.Client;
    const user = await signedInUser(server.t, 30);
    const verifier = oauth.generateRandomCodeVerifier();
    const query = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: 'http://127.0.0.1:9999/callback', code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'older', scope: 'content:read' });
    const forwarded = await fetch(`${server.origin}/authorize?${query}`, { redirect: 'manual' });
    expect(forwarded.status).toBe(302);
    const next = new URL(forwarded.headers.get('location')!, server.origin);
    expect(next.pathname).toBe('/_cms/oauth/authorize');
    expect([...next.searchParams]).toEqual([...query]);
    const callback = await authorizeInBrowser(server, user.cookie, next.href);
    expect(callback.searchParams.get('state')).toBe('older');
    const tokens = await postForm(fallback.token_endpoint!, { grant_type: 'authorization_code', client_id: client.client_id, code: callback.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:9999/callback', code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect((await mcpCall(tokens.body.access_token)).status).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(fallback, client, await oauth.refreshTokenGrantRequest(fallback, client, oauth.None(), tokens.body.refresh_token, insecure));
    expect((await mcpCall(refreshed.access_token)).status).toBe(200);
    // Bad input there is the RFC's error, as at the endpoints under /_cms/api.
    expect((await postForm(fallback.token_endpoint!, { grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    const oversized = await fetch(`${server.origin}/authorize?state=${'x'.repeat(5000)}`, { redirect: 'manual' });
    expect(oversized.status).toBe(400);
    expect(oversized.headers.get('content-type')).toMatch(/^text\/html/);
    const preflight = await fetch(`${server.origin}/token`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('registration (RFC 7591)', () => {
  it('registers a public client, answering a secret-based method with none', async () => {
    const response = await postJson(`${server.origin}/_cms/api/oauth/register`, { redirect_uris: ['https://app.example/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback', 'http://localhost/cb'], client_name: 'Claude', token_endpoint_auth_method: 'client_secret_post', unknown_field: 1 });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toMatchObject({ client_name: 'Claude', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
    expect(response.body.client_id).toMatch(/^folio_client_/);
    expect(Object.values(response.body)).not.toContain(null);
    const unnamed = await postJson(`${server.origin}/_cms/api/oauth/register`, { redirect_uris: ['com.example.app:/callback'] });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.client_name).toBe('Unnamed client');
  });

  it('registers a device-only client without redirect URIs, which then connects by the device flow alone', async () => {
    const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';
    const registered = await oauth.dynamicClientRegistrationRequest(as, { client_name: 'Headless tool', grant_types: [deviceGrant, 'refresh_token'] }, insecure);
    const client = (await oauth.processDynamicClientRegistrationResponse(registered)) as oauth.Client;
    expect(client).toMatchObject({ client_name: 'Headless tool', grant_types: [deviceGrant, 'refresh_token'], response_types: [] });
    expect(client.redirect_uris).toBeUndefined();
    const user = await signedInUser(server.t, 30);
    const device = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: 'content:read' }, insecure));
    const approved = await fetch(`${server.origin}/_cms/oauth/device`, { method: 'POST', headers: { cookie: user.cookie, origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ user_code: device.user_code, decision: 'approve' }) });
    expect(approved.status).toBe(200);
    const tokens = await oauth.processGenericTokenEndpointResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, insecure));
    expect(tokens.scope).toBe('content:read');
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    // It has nowhere to send a browser back to, so the code flow is closed to it.
    const request = await authorizationRequest(client);
    request.url.searchParams.delete('redirect_uri');
    const page = await fetch(request.url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('it can only use the device flow');
    // A client of the code flow still must name where its answers go.
    const withoutRedirects = await postJson(as.registration_endpoint!, { client_name: 'Browser app' });
    expect(withoutRedirects.status).toBe(400);
    expect(withoutRedirects.body.error).toBe('invalid_client_metadata');
  });

  it.each([
    [{ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://app.example/cb#fragment'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
  ])('refuses %j with %s', async (body, error) => {
    const response = await postJson(`${server.origin}/_cms/api/oauth/register`, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(error);
    expect(typeof response.body.error_description).toBe('string');
  });
});

async function postJson(url: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, string> };
}

describe('authorization code with PKCE', () => {
  it('asks consent, validates iss, issues opaque hashed tokens bound to /mcp, and asks again for a loopback redirect', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const tokens = await signIn(client, user.cookie);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'content:read content:write' });
    expect(tokens.access_token).toMatch(/^folio_at_/);
    expect(tokens.refresh_token).toMatch(/^folio_rt_/);
    const stored = await server.t.db.kysely.selectFrom('oauth_tokens').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(tokens.access_token);
    const list = await mcpCall(tokens.access_token);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(10);
    // The same request again is asked again: any program on this computer could be listening at a loopback URI (RFC 8252 §8.6).
    const again = await fetch((await authorizationRequest(client)).url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(again.status).toBe(200);
    expect(consentRequestId(await again.text())).toBeTruthy();
    // The REST API refuses a token issued for the MCP endpoint.
    expect((await fetch(`${server.origin}/_cms/api/auth/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
  });

  it('accepts a loopback redirect URI on any port, and only there', async () => {
    const client = await register(['http://127.0.0.1:1234/callback', 'https://app.example/cb']);
    const user = await signedInUser(server.t, 30);
    const tokens = await signIn(client, user.cookie, { redirect_uri: 'http://127.0.0.1:5555/callback' });
    expect(tokens.access_token).toMatch(/^folio_at_/);
    for (const redirect of ['http://127.0.0.1:5555/other', 'https://app.example:8443/cb', 'https://app.example/cb/']) {
      const request = await authorizationRequest(client, { redirect_uri: redirect });
      const response = await fetch(request.url, { headers: { cookie: user.cookie }, redirect: 'manual' });
      expect(response.status, redirect).toBe(400);
      expect(await response.text()).toContain('is not registered for this client');
    }
  });

  it('clamps scopes to the role and grants nothing above it', async () => {
    const client = await register();
    const subscriber = await signedInUser(server.t, 10);
    const request = await authorizationRequest(client, { scope: 'content:read schema:write admin' });
    const page = await fetch(request.url, { headers: { cookie: subscriber.cookie } });
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9999;");
    const html = await page.text();
    expect(html).toContain('<code>content:read</code>');
    expect(html).not.toContain('<code>schema:write</code>');
    expect(html).toContain('Not granted (your role does not allow it): schema:write, admin.');
    const tokens = await signIn(client, subscriber.cookie, { scope: 'content:read schema:write admin' });
    expect(tokens.scope).toBe('content:read');
    const call = await mcpCall(tokens.access_token, 'tools/call', { name: 'schema_create_collection', arguments: { slug: 'x', label: 'X' } });
    expect(((await call.json()) as { error: { message: string } }).error.message).toBe('Insufficient scope: requires schema:write');
    // Only content:write asked, above a subscriber: nothing to grant, back to the client with invalid_scope.
    const nothing = await authorizationRequest(client, { scope: 'content:write' });
    const refused = await fetch(nothing.url, { headers: { cookie: subscriber.cookie }, redirect: 'manual' });
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('cuts the scopes of a token to the user’s current role at every request', async () => {
    const client = await register();
    const author = await signedInUser(server.t, 30);
    const tokens = await signIn(client, author.cookie);
    await server.t.db.kysely.updateTable('users').set({ role: 10 }).where('id', '=', author.userId).execute();
    const call = await mcpCall(tokens.access_token, 'tools/call', { name: 'content_create', arguments: { collection: 'posts', data: {} } });
    expect(((await call.json()) as { error: { message: string } }).error.message).toBe('Insufficient scope: requires content:write');
  });

  it('sends a browser without a session to sign in, and back to this request afterwards', async () => {
    const client = await register();
    const request = await authorizationRequest(client);
    const response = await fetch(request.url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/_cms/sign-in?return=${encodeURIComponent(request.url.pathname + request.url.search)}`);
  });

  it('refuses bad requests with the RFC error, state and iss, granting nothing', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: '' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
    ];
    for (const [params, error] of cases) {
      const request = await authorizationRequest(client, params);
      const response = await fetch(request.url, { headers: { cookie: user.cookie }, redirect: 'manual' });
      expect(response.status, JSON.stringify(params)).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.searchParams.get('error'), JSON.stringify(params)).toBe(error);
      expect(location.searchParams.get('state')).toBe(request.state);
      expect(location.searchParams.get('iss')).toBe(server.issuer);
      expect(() => oauth.validateAuthResponse(as, client, location, request.state)).toThrow();
    }
    // Two resources: which one the token is for is ambiguous, never silently the first (issue 29, item 15).
    const twice = await authorizationRequest(client, { resource: server.mcpUrl });
    twice.url.searchParams.append('resource', `${server.origin}/_cms/api`);
    const refusedTwice = await fetch(twice.url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    // The query could not be read, so its redirect_uri is not trusted: the error is a page, not a redirect.
    expect(refusedTwice.status).toBe(400);
    expect(await refusedTwice.text()).toMatch(/resource: Must be given once/);
    for (const clientId of ['unknown-client', '']) {
      const request = await authorizationRequest({ ...client, client_id: clientId });
      const response = await fetch(request.url, { headers: { cookie: user.cookie }, redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain(clientId === '' ? 'client_id is required' : 'Unknown client');
    }
    expect(await server.t.db.kysely.selectFrom('oauth_grants').selectAll().where('user_id', '=', user.userId).execute()).toEqual([]);
  });

  it('refuses a wrong verifier, a reused code (revoking what it gave) and another redirect URI', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const request = await authorizationRequest(client);
    const redirect = await authorizeInBrowser(server, user.cookie, request.url.href);
    const code = redirect.searchParams.get('code')!;
    const token = (fields: Record<string, string>) => postForm(as.token_endpoint!, { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: 'http://127.0.0.1:9999/callback', code_verifier: request.verifier, ...fields });
    const wrong = await token({ code_verifier: oauth.generateRandomCodeVerifier() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    expect((await token({ redirect_uri: 'http://127.0.0.1:9999/other' })).body.error).toBe('invalid_grant');
    expect((await token({ client_id: 'someone-else' })).body.error).toBe('invalid_grant');
    const good = await token({});
    expect(good.status).toBe(200);
    expect(good.headers.get('cache-control')).toBe('no-store');
    expect((await mcpCall(good.body.access_token)).status).toBe(200);
    const reused = await token({});
    expect(reused.body.error).toBe('invalid_grant');
    expect((await mcpCall(good.body.access_token)).status).toBe(401);
    // A client with one redirect URI may leave it out of both requests.
    const omitted = await authorizationRequest(client, { redirect_uri: '' });
    omitted.url.searchParams.delete('redirect_uri');
    const back = await authorizeInBrowser(server, user.cookie, omitted.url.href);
    expect(back.href.startsWith('http://127.0.0.1:9999/callback?')).toBe(true);
    const withoutRedirect = await postForm(as.token_endpoint!, { grant_type: 'authorization_code', client_id: client.client_id, code: back.searchParams.get('code')!, code_verifier: omitted.verifier });
    expect(withoutRedirect.status).toBe(200);
  });

  it('answers the token endpoint’s bad input per RFC 6749 §5.2', async () => {
    const endpoint = as.token_endpoint!;
    const charset = await postForm(endpoint, { grant_type: 'password' }, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' });
    expect(charset.status).toBe(400);
    expect(charset.body).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
    const json = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"refresh_token"}' });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    expect((await postForm(endpoint, {})).body.error).toBe('invalid_request');
    expect((await postForm(endpoint, { grant_type: 'authorization_code', client_id: 'x' })).body.error).toBe('invalid_request');
    expect((await postForm(endpoint, { grant_type: 'refresh_token', refresh_token: 'folio_rt_nope' })).body.error).toBe('invalid_grant');
  });
});

describe('remembered consent and the redirect URI (local impersonation)', () => {
  it('goes straight back only to the client’s one https redirect URI; another of its URIs, or a loopback URI, asks again with a warning', async () => {
    const user = await signedInUser(server.t, 30);
    const web = await register(['https://app.example/cb']);
    const first = await authorizationRequest(web, { redirect_uri: 'https://app.example/cb' });
    expect(await (await fetch(first.url, { headers: { cookie: user.cookie } })).text()).not.toContain('id="local-redirect"');
    await signIn(web, user.cookie, { redirect_uri: 'https://app.example/cb' });
    const remembered = await fetch((await authorizationRequest(web, { redirect_uri: 'https://app.example/cb' })).url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(remembered.status).toBe(302);
    // Approved at its registered loopback URI; asked again there, as some other local program may be the one asking now.
    const native = await register(['http://127.0.0.1:9999/callback']);
    await signIn(native, user.cookie);
    const same = await fetch((await authorizationRequest(native)).url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(same.status).toBe(200);
    expect(await same.text()).toContain('The answer goes to a program on this computer (127.0.0.1:9999)');
    const impostor = await fetch((await authorizationRequest(native, { redirect_uri: 'http://127.0.0.1:7777/callback' })).url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(impostor.status).toBe(200);
    const page = await impostor.text();
    expect(consentRequestId(page)).toBeTruthy();
    expect(page).toContain('The answer goes to a program on this computer (127.0.0.1:7777)');
    // Two redirect URIs: approving one says nothing of the other.
    const twoWays = await register(['https://app.example/cb', 'https://app.example/other']);
    await signIn(twoWays, user.cookie, { redirect_uri: 'https://app.example/cb' });
    const other = await fetch((await authorizationRequest(twoWays, { redirect_uri: 'https://app.example/other' })).url, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(other.status).toBe(200);
    expect(consentRequestId(await other.text())).toBeTruthy();
  });
});

describe('scopes Folio does not know (RFC 6749 §3.3)', () => {
  it('are ignored: offline_access and openid neither fail nor come back as registered, and a refresh token is issued', async () => {
    const client = await register(undefined, { scope: 'content:read offline_access openid' });
    expect(client.scope).toBe('content:read');
    const user = await signedInUser(server.t, 30);
    const tokens = await signIn(client, user.cookie, { scope: 'content:read offline_access' });
    expect(tokens.scope).toBe('content:read');
    expect(tokens.refresh_token).toMatch(/^folio_rt_/);
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, { ...insecure, additionalParameters: { scope: 'content:read offline_access' } }));
    expect(refreshed.scope).toBe('content:read');
    expect(refreshed.refresh_token).toMatch(/^folio_rt_/);
    const device = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: 'openid content:read offline_access' }, insecure));
    expect(device.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    // Only scopes Folio does not know: as if none were named, the consent page lists what the role allows.
    const request = await authorizationRequest(client, { scope: 'openid offline_access' });
    const page = await (await fetch(request.url, { headers: { cookie: user.cookie } })).text();
    expect([...page.matchAll(/<li><code>([^<]+)<\/code>/g)].map((match) => match[1])).toEqual(['content:read', 'content:write', 'media:read', 'media:write']);
  });
});

describe('resource indicators (RFC 8707)', () => {
  it('binds tokens to their resource: /mcp refuses a token for the REST API, which accepts it', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const api = await signIn(client, user.cookie, { resource: `${server.origin}/_cms/api` });
    expect((await mcpCall(api.access_token)).status).toBe(401);
    expect((await fetch(`${server.origin}/_cms/api/auth/me`, { headers: { authorization: `Bearer ${api.access_token}` } })).status).toBe(200);
    const slash = await signIn(client, user.cookie, { resource: `${server.mcpUrl}/` });
    expect((await mcpCall(slash.access_token)).status).toBe(200);
    const refreshed = await postForm(as.token_endpoint!, { grant_type: 'refresh_token', refresh_token: slash.refresh_token!, resource: `${server.origin}/_cms/api` });
    expect(refreshed.body.error).toBe('invalid_target');
  });
});

describe('the resource parameter, compared as a URL', () => {
  it('accepts the MCP URL with an upper-case scheme; refuses two resources at the token and device endpoints with invalid_target', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const shouted = server.mcpUrl.replace('http://', 'HTTP://');
    const tokens = await signIn(client, user.cookie, { resource: shouted });
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    const twoResources = [['resource', server.mcpUrl], ['resource', `${server.origin}/_cms/api`]];
    const refused = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, { ...insecure, additionalParameters: twoResources });
    expect(refused.status).toBe(400);
    const refusal = await oauth.processRefreshTokenResponse(as, client, refused).catch((error: unknown) => error);
    expect((refusal as oauth.ResponseBodyError).error).toBe('invalid_target');
    const device = await oauth.deviceAuthorizationRequest(as, client, oauth.None(), twoResources, insecure);
    expect(device.status).toBe(400);
    expect(((await device.json()) as { error: string }).error).toBe('invalid_target');
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, { ...insecure, additionalParameters: { resource: `${shouted}/` } }));
    expect((await mcpCall(refreshed.access_token)).status).toBe(200);
  });

  it('accepts the host in upper case', async () => {
    const named = await startOAuthServer({}, 'localhost');
    try {
      const discovered = await oauth.processDiscoveryResponse(new URL(named.issuer), await oauth.discoveryRequest(new URL(named.issuer), { algorithm: 'oauth2', ...insecure }));
      const client = (await oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(discovered, { redirect_uris: ['http://127.0.0.1:9999/callback'] }, insecure))) as oauth.Client;
      const device = await oauth.deviceAuthorizationRequest(discovered, client, oauth.None(), { resource: named.mcpUrl.replace('localhost', 'LocalHost') }, insecure);
      expect(device.status).toBe(200);
      const elsewhere = await oauth.deviceAuthorizationRequest(discovered, client, oauth.None(), { resource: named.mcpUrl.replace('localhost', 'localhost.example') }, insecure);
      expect(((await elsewhere.json()) as { error: string }).error).toBe('invalid_target');
    } finally {
      await named.close();
    }
  });
});

describe('refresh rotation', () => {
  it('rotates, gives the same pair to a parallel refresh, and revokes the family on a later reuse', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const first = await signIn(client, user.cookie);
    const [a, b] = await Promise.all([0, 1].map(async () => oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure))));
    expect(a!.refresh_token).not.toBe(first.refresh_token);
    expect(b!.access_token).toBe(a!.access_token);
    expect(b!.refresh_token).toBe(a!.refresh_token);
    expect((await mcpCall(a!.access_token)).status).toBe(200);
    const second = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), a!.refresh_token!, insecure));
    server.t.clock.advance(11_000);
    const reuse = await postForm(as.token_endpoint!, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: first.refresh_token! });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // The whole family is gone: the newest pair too.
    expect((await mcpCall(second.access_token)).status).toBe(401);
    expect((await postForm(as.token_endpoint!, { grant_type: 'refresh_token', refresh_token: second.refresh_token! })).body.error).toBe('invalid_grant');
  });

  it('expires access tokens after an hour; a refresh may narrow the scopes but not widen them', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const tokens = await signIn(client, user.cookie);
    server.t.clock.advance(3_600_000);
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
    const wider = await postForm(as.token_endpoint!, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'content:read admin' });
    expect(wider.body.error).toBe('invalid_scope');
    const narrower = await postForm(as.token_endpoint!, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'content:read' });
    expect(narrower.body.scope).toBe('content:read');
  });
});

describe('revocation (RFC 7009) and connected apps', () => {
  it('revokes a refresh token with its family; unknown tokens get the same answer', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const tokens = await signIn(client, user.cookie);
    const response = await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    await oauth.processRevocationResponse(response);
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
    expect((await postForm(as.revocation_endpoint!, { token: 'folio_rt_unknown' })).status).toBe(200);
    expect((await postForm(as.revocation_endpoint!, {})).body.error).toBe('invalid_request');
  });

  it('refuses to revoke another client’s token with unauthorized_client, and leaves it working', async () => {
    const owner = await register();
    const stranger = await register();
    const user = await signedInUser(server.t, 30);
    const tokens = await signIn(owner, user.cookie);
    for (const token of [tokens.refresh_token!, tokens.access_token]) {
      const response = await oauth.revocationRequest(as, stranger, oauth.None(), token, insecure);
      expect(response.status).toBe(400);
      const refusal = await oauth.processRevocationResponse(response).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(oauth.ResponseBodyError);
      expect((refusal as oauth.ResponseBodyError).error).toBe('unauthorized_client');
    }
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, owner, oauth.None(), tokens.access_token, insecure));
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
  });

  it('lists and disconnects the user’s own apps; admins see and disconnect anyone’s', async () => {
    const client = await register(undefined, { client_name: 'My editor' });
    const user = await signedInUser(server.t, 30);
    const other = await signedInUser(server.t, 30);
    const tokens = await signIn(client, user.cookie);
    const own = await server.t.request('GET', '/_cms/api/auth/grants', { headers: { cookie: user.cookie } });
    expect(own.body.data.items).toEqual([expect.objectContaining({ clientId: client.client_id, clientName: 'My editor', userId: user.userId, scopes: ['content:read', 'content:write'] })]);
    const grantId = own.body.data.items[0].id;
    expect((await server.t.request('GET', '/_cms/api/auth/grants', { headers: { cookie: other.cookie } })).body.data.items).toEqual([]);
    expect((await server.t.request('DELETE', `/_cms/api/auth/grants/${grantId}`, { headers: { cookie: other.cookie, origin: server.origin } })).status).toBe(404);
    expect((await server.t.request('GET', '/_cms/api/auth/grants')).status).toBe(401);
    expect((await server.t.request('GET', `/_cms/api/admin/grants?userId=${user.userId}`, { token: user.token })).status).toBe(403);
    const all = await server.t.request('GET', `/_cms/api/admin/grants?userId=${user.userId}`, { token: server.t.adminToken });
    expect(all.body.data.items.map((item: { id: string }) => item.id)).toEqual([grantId]);
    expect((await server.t.request('DELETE', `/_cms/api/auth/grants/${grantId}`, { headers: { cookie: user.cookie, origin: server.origin } })).status).toBe(200);
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
    const again = await signIn(client, user.cookie);
    const adminDelete = await server.t.request('DELETE', `/_cms/api/admin/grants/${(await server.t.request('GET', '/_cms/api/auth/grants', { headers: { cookie: user.cookie } })).body.data.items[0].id}`, { token: server.t.adminToken });
    expect(adminDelete.status).toBe(200);
    expect((await mcpCall(again.access_token)).status).toBe(401);
  });
});

describe('the consent POST', () => {
  it('is refused from another origin, or without its request id, and grants nothing', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const request = await authorizationRequest(client);
    const page = await (await fetch(request.url, { headers: { cookie: user.cookie } })).text();
    const requestId = /name="request" value="([^"]+)"/.exec(page)![1]!;
    const post = (fields: Record<string, string>, origin: string) =>
      fetch(`${server.origin}/_cms/oauth/consent`, { method: 'POST', headers: { cookie: user.cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), redirect: 'manual' });
    expect((await post({ request: requestId, decision: 'approve' }, 'https://evil.example')).status).toBe(403);
    expect((await post({ request: 'forged', decision: 'approve' }, server.origin)).status).toBe(400);
    expect((await post({ decision: 'approve' }, server.origin)).status).toBe(400);
    expect(await server.t.db.kysely.selectFrom('oauth_grants').selectAll().where('user_id', '=', user.userId).execute()).toEqual([]);
    // Denied: back to the client with access_denied, and still nothing granted.
    const denied = await post({ request: requestId, decision: 'deny' }, server.origin);
    expect(denied.status).toBe(303);
    const location = new URL(denied.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('iss')).toBe(server.issuer);
    expect(await server.t.db.kysely.selectFrom('oauth_grants').selectAll().where('user_id', '=', user.userId).execute()).toEqual([]);
  });
});

describe('device flow (RFC 8628)', () => {
  async function startDevice(client: oauth.Client, scope = 'content:read') {
    return oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope }, insecure));
  }
  const poll = (client: oauth.Client, deviceCode: string) => postForm(as.token_endpoint!, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: client.client_id, device_code: deviceCode });
  const answer = (cookie: string, userCode: string, decision: string) =>
    fetch(`${server.origin}/_cms/oauth/device`, { method: 'POST', headers: { cookie, origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ user_code: userCode, decision }) });

  it('answers pending, then slow_down, then the tokens once approved on the device page', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const device = await startDevice(client);
    expect(device.user_code).toMatch(/^[BCDFGHJKMNPQRSTVWXZ]{4}-[BCDFGHJKMNPQRSTVWXZ]{4}$/);
    expect(device).toMatchObject({ verification_uri: `${server.origin}/_cms/oauth/device`, verification_uri_complete: `${server.origin}/_cms/oauth/device?user_code=${device.user_code}`, expires_in: 600, interval: 5 });
    expect((await poll(client, device.device_code)).body.error).toBe('authorization_pending');
    const tooFast = await poll(client, device.device_code);
    expect(tooFast.status).toBe(400);
    expect(tooFast.body.error).toBe('slow_down');
    server.t.clock.advance(10_000);
    const page = await (await fetch(device.verification_uri_complete!, { headers: { cookie: user.cookie } })).text();
    expect(page).toContain('Test client');
    expect(page).toContain('<code>content:read</code>');
    expect((await fetch(device.verification_uri_complete!, { redirect: 'manual' })).headers.get('location')).toMatch(/^\/_cms\/sign-in\?return=/);
    // A post from another site's page (CSRF) is refused before anything is decided.
    const forged = await fetch(`${server.origin}/_cms/oauth/device`, { method: 'POST', headers: { cookie: user.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ user_code: device.user_code, decision: 'approve' }) });
    expect(forged.status).toBe(403);
    expect((await poll(client, device.device_code)).body.error).toBe('authorization_pending');
    server.t.clock.advance(10_000);
    expect((await answer(user.cookie, device.user_code.toLowerCase(), 'approve')).status).toBe(200);
    const tokens = await poll(client, device.device_code);
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('content:read');
    expect((await mcpCall(tokens.body.access_token)).status).toBe(200);
    server.t.clock.advance(10_000);
    expect((await poll(client, device.device_code)).body.error).toBe('invalid_grant');
  });

  it('answers access_denied when denied and expired_token once expired', async () => {
    const client = await register();
    const user = await signedInUser(server.t, 30);
    const denied = await startDevice(client);
    await answer(user.cookie, denied.user_code, 'deny');
    expect((await poll(client, denied.device_code)).body.error).toBe('access_denied');
    const expired = await startDevice(client);
    server.t.clock.advance(601_000);
    expect((await poll(client, expired.device_code)).body.error).toBe('expired_token');
    const late = await answer(user.cookie, expired.user_code, 'approve');
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('This code is unknown, expired or already used');
    const typo = await fetch(`${server.origin}/_cms/oauth/device?user_code=AAAA-0000`, { headers: { cookie: user.cookie } });
    expect(typo.status).toBe(400);
    expect(await typo.text()).toContain('This code is unknown, expired or already used');
    expect((await postForm(as.device_authorization_endpoint!, { client_id: 'unknown' })).body.error).toBe('invalid_client');
    expect((await postForm(as.device_authorization_endpoint!, { client_id: client.client_id, scope: 'content:write' })).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('answer 429 with Retry-After at the token, registration and device endpoints', async () => {
    const client = await register();
    const limits: [string, Record<string, string>, number][] = [
      [as.token_endpoint!, { grant_type: 'refresh_token', refresh_token: 'x' }, 60],
      [as.device_authorization_endpoint!, { client_id: client.client_id }, 20],
    ];
    for (const [endpoint, fields, limit] of limits) {
      let last;
      for (let index = 0; index <= limit; index++) last = await postForm(endpoint, fields);
      expect(last!.status, endpoint).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.body.error).toBe('temporarily_unavailable');
    }
    let registration;
    for (let index = 0; index <= 20; index++) registration = await postJson(as.registration_endpoint!, { redirect_uris: ['https://app.example/cb'] });
    expect(registration!.status).toBe(429);
    expect(Number(registration!.headers.get('retry-after'))).toBeGreaterThan(0);
    server.t.clock.advance(3_600_000);
  });
});
