import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { discoverOAuthMetadata, exchangeAuthorization, registerClient, startAuthorization, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRedirectUrl, connectWithOAuth, TestOAuthProvider } from './support/mcp-oauth.ts';
import { authorizeInBrowser, signedInUser, startOAuthServer, type OAuthServer } from './support/oauth.ts';

/**
 * The MCP SDK's own OAuth client, end to end with no human: 401 → discovery → registration (dynamic,
 * or a client-ID metadata document) → authorize (the provider follows the redirect as a signed-in
 * user who approves) → token → tools/list and tools/call → the access token expires → refresh.
 */
let server: OAuthServer;
let documents: https.Server;
let documentUrl: string;

beforeAll(async () => {
  server = await startOAuthServer({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
  // The SDK accepts only an https metadata URL: a certificate for 127.0.0.1 that this process trusts.
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }] });
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), pems.cert]);
  documents = https.createServer({ key: pems.private, cert: pems.cert }, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: documentUrl, client_name: 'SDK by metadata document', redirect_uris: [clientRedirectUrl], token_endpoint_auth_method: 'none' }));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', () => resolve()));
  documentUrl = `https://127.0.0.1:${(documents.address() as AddressInfo).port}/oauth/client.json`;
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => (documents ? documents.close(() => resolve()) : resolve()));
});

async function runFlow(provider: TestOAuthProvider): Promise<void> {
  const client = await connectWithOAuth(server.mcpUrl, server.issuer, provider);
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
    const provider = new TestOAuthProvider((url) => authorizeInBrowser(server, user.cookie, url.href));
    await runFlow(provider);
    expect(provider.client!.client_id).toMatch(/^folio_client_/);
  });

  it('identifies itself by a client-ID metadata document instead of registering', async () => {
    const user = await signedInUser(server.t, 40);
    const provider = new TestOAuthProvider((url) => authorizeInBrowser(server, user.cookie, url.href), documentUrl);
    await runFlow(provider);
    expect(provider.client!.client_id).toBe(documentUrl);
    const grants = await server.t.request('GET', '/_cms/api/auth/grants', { headers: { cookie: user.cookie } });
    expect(grants.body.data.items).toEqual([expect.objectContaining({ clientId: documentUrl, clientName: 'SDK by metadata document' })]);
  });

  it('asks for the scopes the 401 challenge names: what the tools use, never admin', async () => {
    const admin = await signedInUser(server.t, 50);
    const asked: (string | null)[] = [];
    const provider = new TestOAuthProvider((url) => {
      asked.push(url.searchParams.get('scope'));
      return authorizeInBrowser(server, admin.cookie, url.href);
    });
    const client = await connectWithOAuth(server.mcpUrl, server.issuer, provider);
    try {
      // Before issue 29 (item 13) the SDK fell back to scopes_supported, admin included, and an admin's client got it.
      expect(asked).toEqual(['content:read content:write media:read media:write schema:read schema:write']);
      expect(provider.saved!.scope).toBe('content:read content:write media:read media:write schema:read schema:write');
      expect((await client.callTool({ name: 'schema_list_collections', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('serves a client of MCP 2025-03-26 through the SDK: metadata, registration, authorization and token at the root, offline_access and openid ignored', async () => {
    // Such a client takes the MCP server's origin for the authorization server, and its fallbacks when needed.
    const metadata = await discoverOAuthMetadata(server.origin);
    expect(metadata?.issuer).toBe(server.issuer);
    const clientMetadata = { client_name: 'March client', redirect_uris: [clientRedirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    const client = await registerClient(server.origin, { clientMetadata, scope: 'content:read offline_access openid' });
    // Only what Folio knows is echoed (issue 29, item 12).
    expect(client.scope).toBe('content:read');
    const { authorizationUrl, codeVerifier } = await startAuthorization(server.origin, { clientInformation: client, redirectUrl: clientRedirectUrl, scope: 'content:read offline_access', state: 'march' });
    expect(authorizationUrl.pathname).toBe('/authorize');
    const forwarded = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(forwarded.status).toBe(302);
    const user = await signedInUser(server.t, 30);
    const answer = await authorizeInBrowser(server, user.cookie, new URL(forwarded.headers.get('location')!, server.origin).href);
    expect(answer.searchParams.get('error')).toBeNull();
    const tokens = await exchangeAuthorization(server.origin, { clientInformation: client, authorizationCode: answer.searchParams.get('code')!, codeVerifier, redirectUri: clientRedirectUrl });
    // offline_access asks for a refresh token: there is one; the token's scope is what it can do in Folio.
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope).toBe('content:read');
  });

  it('answers a tool whose scope the token lacks with 403 insufficient_scope; the client asks for it, gets it, and the call succeeds', async () => {
    const person = await signedInUser(server.t, 30);
    const asked: (string | null)[] = [];
    const provider = new TestOAuthProvider(
      (url) => {
        asked.push(url.searchParams.get('scope'));
        return authorizeInBrowser(server, person.cookie, url.href);
      },
      undefined,
      { keepsRefreshTokens: false },
    );
    const client = await connectWithOAuth(server.mcpUrl, server.issuer, provider);
    try {
      // An author's connection: what the role allowed of what was asked. Then the person becomes an Editor.
      expect(provider.saved!.scope).toBe('content:read content:write media:read media:write');
      await server.t.db.kysely.updateTable('users').set({ role: 40 }).where('id', '=', person.userId).execute();

      const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'schema_list_collections', arguments: {} } };
      const refused = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(call),
      });
      expect(refused.status).toBe(403);
      // The scopes the token has and the one it lacks, so asking for them loses nothing.
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="content:read content:write media:read media:write schema:read", resource_metadata="${server.origin}/.well-known/oauth-protected-resource", error_description="Insufficient scope: requires schema:read"`,
      );
      expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Insufficient scope: requires schema:read' } });

      // The SDK client meets the same 403 and starts an authorization for the challenge's scopes.
      await expect(client.callTool({ name: 'schema_list_collections', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
      expect(asked.at(-1)).toBe('content:read content:write media:read media:write schema:read');
      const code = provider.response!.searchParams.get('code');
      expect(code, String(provider.response)).toBeTruthy();
      await (client.transport as StreamableHTTPClientTransport).finishAuth(code!);
      expect(provider.saved!.scope).toBe('content:read content:write media:read media:write schema:read');
      const collections = await client.callTool({ name: 'schema_list_collections', arguments: {} });
      expect(collections.isError).toBeFalsy();
      // Nothing was lost on the way.
      expect((await client.callTool({ name: 'menu_list', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
