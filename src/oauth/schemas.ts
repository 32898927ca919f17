import { z } from 'zod';

/**
 * Inputs and outputs of the OAuth endpoints. Form parameters are plain strings: the RFCs say which
 * error a missing or wrong one gets, so the operations check them; unknown parameters are ignored
 * (RFC 6749 §3.1, §3.2).
 */
const parameter = z.string().max(4096).optional();

export const AuthorizeQuery = z.object({
  response_type: parameter,
  client_id: parameter,
  redirect_uri: parameter,
  state: parameter,
  scope: parameter,
  code_challenge: parameter,
  code_challenge_method: parameter,
  resource: parameter,
});

export const ConsentForm = z.object({
  request: z.string().min(1).max(100),
  decision: z.enum(['approve', 'deny']),
});

export const TokenForm = z.object({
  grant_type: z.string().min(1).max(200),
  client_id: parameter,
  code: parameter,
  redirect_uri: parameter,
  code_verifier: parameter,
  refresh_token: parameter,
  device_code: parameter,
  scope: parameter,
  resource: parameter,
});

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  scope: z.string(),
});

export const DeviceCodeForm = z.object({ client_id: parameter, scope: parameter, resource: parameter });

export const DeviceCodeResponse = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_uri_complete: z.string(),
  expires_in: z.number().int(),
  interval: z.number().int(),
});

export const DevicePageQuery = z.object({ user_code: z.string().max(64).optional() });
export const DeviceForm = z.object({ user_code: z.string().max(64), decision: z.enum(['approve', 'deny']).optional() });

export const RevocationForm = z.object({ token: z.string().min(1).max(4096), token_type_hint: parameter, client_id: parameter });

const uriList = z.array(z.string().max(2048)).min(1).max(20);

/**
 * RFC 7591 §2; other metadata is ignored (§3.2.1 answers with what was registered). `redirect_uris`
 * is required only of clients that use a redirect (the operation checks it against `grant_types`).
 */
export const RegistrationBody = z.object({
  redirect_uris: z.array(z.string().max(2048)).max(20).optional(),
  client_name: z.string().trim().min(1).max(200).optional(),
  client_uri: z.url().max(2048).optional(),
  logo_uri: z.url().max(2048).optional(),
  grant_types: z.array(z.string().max(200)).max(10).optional(),
  response_types: z.array(z.string().max(50)).max(5).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  scope: z.string().max(1000).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(100).optional(),
});

export const RegistrationResponse = z.object({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()).optional(),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.literal('none'),
}).loose();

/** A client-ID metadata document: the fields Folio needs; `client_id` must be the document's own URL. */
export const ClientMetadataDocument = z.object({
  client_id: z.string().max(2048),
  client_name: z.string().trim().min(1).max(200),
  redirect_uris: uriList,
  client_uri: z.string().max(2048).optional(),
  logo_uri: z.string().max(2048).optional(),
  token_endpoint_auth_method: z.literal('none', 'Folio serves public clients only: token_endpoint_auth_method must be "none"').optional(),
});

export const GrantSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    clientId: z.string(),
    clientName: z.string(),
    scopes: z.array(z.string()),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'OAuthGrant' });

export type Grant = z.infer<typeof GrantSchema>;
export const GrantListResponse = z.object({ items: z.array(GrantSchema) });
export const GrantIdParams = z.object({ id: z.string().min(1).max(64) });
export const GrantListQuery = z.object({ userId: z.string().min(1).max(64).optional() });

export const ProtectedResourceDocument = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
});

export const AuthorizationServerDocument = z.object({ issuer: z.string() }).loose();
