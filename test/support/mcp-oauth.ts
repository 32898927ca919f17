import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';

export const clientRedirectUrl = 'http://127.0.0.1:9999/callback';

/**
 * An MCP SDK OAuthClientProvider that keeps everything in memory. Where a desktop client would open
 * the browser, it calls `approve`, which answers the authorization request as a person would and
 * gives back the URL the browser was finally sent to.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** What the authorization response carried. */
  response?: URL;
  refreshes = 0;
  readonly clientMetadataUrl?: string;
  private readonly approve: (authorizationUrl: URL) => Promise<URL>;
  private readonly keepsRefreshTokens: boolean;

  /**
   * `keepsRefreshTokens: false` is a client that keeps only access tokens. The SDK (1.32) answers a 403
   * insufficient_scope by refreshing first when it holds a refresh token, which cannot widen a token,
   * and then gives up (modelcontextprotocol/typescript-sdk#2255); without one it asks for the scopes.
   */
  constructor(approve: (authorizationUrl: URL) => Promise<URL>, clientMetadataUrl?: string, { keepsRefreshTokens = true } = {}) {
    this.approve = approve;
    this.clientMetadataUrl = clientMetadataUrl;
    this.keepsRefreshTokens = keepsRefreshTokens;
  }
  get redirectUrl() {
    return clientRedirectUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'SDK client', redirect_uris: [clientRedirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
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
    this.saved = this.keepsRefreshTokens ? tokens : { ...tokens, refresh_token: undefined };
  }
  async redirectToAuthorization(url: URL) {
    this.response = await this.approve(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * What an MCP client does with only the MCP URL: its first connection gets 401 and runs the OAuth
 * flow (discovery, registration, authorization); with the code it finishes and connects again.
 */
export async function connectWithOAuth(mcpUrl: string, issuer: string, provider: TestOAuthProvider): Promise<Client> {
  const url = new URL(mcpUrl);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: 'sdk-test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const code = provider.response?.searchParams.get('code');
  expect(code, String(provider.response)).toBeTruthy();
  expect(provider.response!.searchParams.get('iss')).toBe(issuer);
  await first.finishAuth(code!);
  const client = new Client({ name: 'sdk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}
