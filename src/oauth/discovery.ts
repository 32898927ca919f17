import { access, defineOperation } from '../core/operation.ts';
import { scopes } from '../core/roles.ts';
import { issuerOf, oauthPaths, resourceUrl } from './urls.ts';

/**
 * The discovery documents (mcp.md §4, RFC 9728 and RFC 8414), built from the context's base URL so the
 * `issuer` is byte for byte the protected resource's `authorization_servers` entry.
 */
export const protectedResourceMetadata = defineOperation({
  name: 'oauth.protectedResource',
  access: access.public,
  async run(ctx) {
    return {
      resource: resourceUrl(ctx.baseUrl, 'mcp'),
      authorization_servers: [issuerOf(ctx.baseUrl)],
      scopes_supported: [...scopes],
      bearer_methods_supported: ['header'],
    };
  },
});

export const authorizationServerMetadata = defineOperation({
  name: 'oauth.authorizationServer',
  access: access.public,
  async run(ctx) {
    const base = ctx.baseUrl;
    return {
      issuer: issuerOf(base),
      authorization_endpoint: base + oauthPaths.authorize,
      token_endpoint: base + oauthPaths.token,
      scopes_supported: [...scopes],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      device_authorization_endpoint: base + oauthPaths.deviceCode,
      registration_endpoint: base + oauthPaths.register,
      revocation_endpoint: base + oauthPaths.revoke,
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    };
  },
});
