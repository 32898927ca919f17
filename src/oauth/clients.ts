import type { z } from 'zod';
import type { Context } from '../core/context.ts';
import { isoNow } from '../core/clock.ts';
import { access, defineOperation } from '../core/operation.ts';
import { randomSecret } from './secrets.ts';
import { OAuthError } from './errors.ts';
import { fetchMetadataDocument, isMetadataDocumentUrl } from './metadata-documents.ts';
import { redirectUriProblem } from './redirect-uris.ts';
import { joinScopes, parseScopeParameter } from './scopes.ts';
import { spendByClient } from '../auth/rate-limit.ts';
import { oauthLimits } from './limits.ts';
import { ClientMetadataDocument, type RegistrationBody } from './schemas.ts';
import * as store from './store.ts';

/** A client as authorization reads it, registered or described by its metadata document. */
export interface OAuthClient {
  id: string;
  /** What the client calls itself: anyone can write any name into a registration or a document. */
  name: string;
  redirectUris: string[];
  /** The host serving a metadata document client's description, the one thing about it that is verified. */
  documentHost?: string;
}

function documentHostOf(clientId: string): string {
  return new URL(clientId).host;
}

const supportedGrantTypes = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];

function checkRedirectUris(uris: readonly string[], error: 'invalid_redirect_uri' | 'invalid_client'): void {
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw new OAuthError(error, `Invalid redirect URI: ${problem}`);
  }
}

/**
 * RFC 7591 dynamic registration. Folio's clients are public: a client asking for a secret-based
 * authentication method is registered with `none` (§3.2.1 lets the server say what it registered),
 * so clients that ask for one out of habit still work.
 */
export const registerClient = defineOperation({
  name: 'oauth.register',
  access: access.public,
  async run(ctx, input: z.output<typeof RegistrationBody>) {
    await spendByClient(ctx, oauthLimits.register, undefined);
    const grantTypes = input.grant_types ?? ['authorization_code', 'refresh_token'];
    const unsupported = grantTypes.filter((grant) => !supportedGrantTypes.includes(grant));
    if (unsupported.length > 0) throw new OAuthError('invalid_client_metadata', `Unsupported grant_types: ${unsupported.join(', ')}`);
    // Only the code flow sends the browser back to the client; a device-only client has nowhere to go (RFC 7591 §2).
    const redirects = grantTypes.includes('authorization_code');
    const redirectUris = input.redirect_uris ?? [];
    if (redirects && redirectUris.length === 0) throw new OAuthError('invalid_client_metadata', 'redirect_uris is required for the authorization_code grant');
    checkRedirectUris(redirectUris, 'invalid_redirect_uri');
    if (input.response_types !== undefined && input.response_types.some((type) => type !== 'code')) {
      throw new OAuthError('invalid_client_metadata', 'Only the response type "code" is supported');
    }
    const registeredScope = joinScopes(parseScopeParameter(input.scope ?? ''));
    const now = ctx.clock.now();
    const clientId = randomSecret('folio_client_');
    // Unnamed: the host its answers go to says the most about it (a private-use scheme may have none).
    const name = input.client_name ?? ((redirectUris[0] !== undefined && new URL(redirectUris[0]).host) || 'Unnamed client');
    const metadata = {
      client_name: name,
      ...(redirectUris.length > 0 ? { redirect_uris: redirectUris } : {}),
      grant_types: grantTypes,
      // RFC 7591 §2.1: the code grant goes with the code response; a client without it has no response type.
      response_types: redirects ? ['code'] : [],
      token_endpoint_auth_method: 'none',
      ...(input.client_uri !== undefined ? { client_uri: input.client_uri } : {}),
      ...(input.logo_uri !== undefined ? { logo_uri: input.logo_uri } : {}),
      // What it may ask for, as Folio knows it: `offline_access` or `openid` are not echoed as if registered.
      ...(registeredScope !== '' ? { scope: registeredScope } : {}),
      ...(input.software_id !== undefined ? { software_id: input.software_id } : {}),
      ...(input.software_version !== undefined ? { software_version: input.software_version } : {}),
    };
    await store.insertClient(ctx.db, { id: clientId, source: 'registered', name, redirect_uris: JSON.stringify(redirectUris), metadata: JSON.stringify(metadata), created_at: now.toISOString(), stale_at: null });
    return { client_id: clientId, client_id_issued_at: Math.floor(now.getTime() / 1000), ...metadata };
  },
});

/**
 * The client a `client_id` names: a registered one, or the one its metadata document describes
 * (fetched when not cached or stale, and cached per its headers). `invalid_client` otherwise.
 */
export async function findClient(ctx: Pick<Context, 'db' | 'clock' | 'config'>, clientId: string | undefined): Promise<OAuthClient> {
  if (clientId === undefined || clientId === '') throw new OAuthError('invalid_request', 'client_id is required');
  const row = await store.findClientRow(ctx.db, clientId);
  const now = isoNow(ctx.clock);
  if (row && (row.stale_at === null || row.stale_at > now)) {
    return { id: row.id, name: row.name, redirectUris: JSON.parse(row.redirect_uris) as string[], ...(row.source === 'metadata' ? { documentHost: documentHostOf(row.id) } : {}) };
  }
  if (!isMetadataDocumentUrl(clientId)) throw new OAuthError('invalid_client', 'Unknown client: register it first, or use the URL of its metadata document as client_id');
  const fetched = await fetchMetadataDocument(clientId, ctx.config.outgoingAllowPrivate);
  const parsed = ClientMetadataDocument.safeParse(fetched.body);
  if (!parsed.success) throw new OAuthError('invalid_client', `The client metadata document ${clientId} is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'document'}: ${issue.message}`).join('; ')}`);
  const document = parsed.data;
  if (document.client_id !== clientId) throw new OAuthError('invalid_client', `The client metadata document's client_id (${document.client_id}) is not its URL ${clientId}`);
  checkRedirectUris(document.redirect_uris, 'invalid_client');
  await store.saveMetadataClient(ctx.db, {
    id: clientId,
    source: 'metadata',
    name: document.client_name,
    redirect_uris: JSON.stringify(document.redirect_uris),
    metadata: JSON.stringify(document),
    created_at: now,
    stale_at: new Date(ctx.clock.now().getTime() + fetched.freshForMs).toISOString(),
  });
  return { id: clientId, name: document.client_name, redirectUris: document.redirect_uris, documentHost: documentHostOf(clientId) };
}
