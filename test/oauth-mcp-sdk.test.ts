import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeInBrowser, signedInUser, startOAuthServer, type OAuthServer } from './support/oauth.ts';

/**
 * The MCP SDK's own OAuth client, end to end with no human: 401 → discovery → registration (dynamic,
 * or a client-ID metadata document) → authorize (the provider follows the redirect as a signed-in
 * user who approves) → token → tools/list and tools/call → the access token expires → refresh.
 */
let server: OAuthServer;
let documents: https.Server;
let documentUrl: string;
const redirectUrl = 'http://127.0.0.1:9999/callback';

beforeAll(async () => {
  server = await startOAuthServer({ OAUTH_ALLOW_PRIVATE_CLIENT_URLS: 'true' });
  // The SDK accepts only an https metadata URL: a certificate for 127.0.0.1 that this process trusts.
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }] });
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), pems.cert]);
  documents = https.createServer({ key: pems.private, cert: pems.cert }, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: documentUrl, client_name: 'SDK by metadata document', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none' }));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', () => resolve()));
  documentUrl = `https://127.0.0.1:${(documents.address() as AddressInfo).port}/oauth/client.json`;
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => (documents ? documents.close(() => resolve()) : resolve()));
});

/** An OAuthClientProvider that keeps everything in memory and approves as the given browser session. */
class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  code?: string;
  issuer?: string | null;
  refreshes = 0;
  readonly clientMetadataUrl?: string;
  private readonly cookie: string;

  constructor(cookie: string, clientMetadataUrl?: string) {
    this.cookie = cookie;
    this.clientMetadataUrl = clientMetadataUrl;
  }
  get redirectUrl() {
    return redirectUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'SDK client', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    if (this.saved) this.refreshes++;
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    const back = await authorizeInBrowser(server, this.cookie, url.href);
    this.code = back.searchParams.get('code') ?? undefined;
    this.issuer = back.searchParams.get('iss');
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function connectedClient(provider: TestProvider): Promise<Client> {
  const url = new URL(server.mcpUrl);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: 'sdk-test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.code).toBeTruthy();
  expect(provider.issuer).toBe(server.issuer);
  await first.finishAuth(provider.code!);
  const client = new Client({ name: 'sdk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

async function runFlow(provider: TestProvider): Promise<void> {
  const client = await connectedClient(provider);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('content_list');
    // An editor asked for every scope (the resource metadata's list): granted what the role allows.
    expect(provider.saved!.scope!.split(' ').sort()).toEqual(['content:read', 'content:write', 'media:read', 'media:write', 'schema:read']);
    const collections = await client.callTool({ name: 'schema_list_collections', arguments: {} });
    expect(collections.isError).toBeFalsy();
    const menus = await client.callTool({ name: 'menu_list', arguments: {} });
    expect(menus.isError).toBeFalsy();
    const firstAccess = provider.saved!.access_token;
    server.t.clock.advance(3_600_000);
    // Expired: the SDK is told 401, refreshes with the rotated refresh token, and retries.
    const again = await client.listTools();
    expect(again.tools.length).toBe(tools.length);
    expect(provider.refreshes).toBe(1);
    expect(provider.saved!.access_token).not.toBe(firstAccess);
  } finally {
    await client.close();
  }
}

describe('the MCP SDK client with OAuth', () => {
  it('registers dynamically, authorizes, calls tools, and refreshes after expiry', async () => {
    const user = await signedInUser(server.t, 40);
    const provider = new TestProvider(user.cookie);
    await runFlow(provider);
    expect(provider.client!.client_id).toMatch(/^folio_client_/);
  });

  it('identifies itself by a client-ID metadata document instead of registering', async () => {
    const user = await signedInUser(server.t, 40);
    const provider = new TestProvider(user.cookie, documentUrl);
    await runFlow(provider);
    expect(provider.client!.client_id).toBe(documentUrl);
    const grants = await server.t.request('GET', '/_cms/api/auth/grants', { headers: { cookie: user.cookie } });
    expect(grants.body.data.items).toEqual([expect.objectContaining({ clientId: documentUrl, clientName: 'SDK by metadata document' })]);
  });
});
