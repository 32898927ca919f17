import { userPrincipal, type UserPrincipal } from '../core/context.ts';
import { unauthorized } from '../core/errors.ts';
import { effectiveScopes } from '../core/roles.ts';
import type { CredentialResolver, CredentialRequest } from '../http/credentials.ts';
import { hashSecret } from '../auth/secrets.ts';
import { parseScopes } from '../auth/store.ts';
import { accessTokenPrefix } from './secrets.ts';
import { audienceForPath } from './urls.ts';
import * as store from './store.ts';

/**
 * `Authorization: Bearer folio_at_…`: an OAuth access token. It answers only for tokens with its
 * prefix (personal access tokens go on to the next resolver). A token works only at its audience
 * (RFC 8707): one for the MCP endpoint is refused by the REST API and the other way round. Its
 * scopes are cut to the user's role as it is now, at every request (DECISIONS §2).
 */
export const oauthAccessTokens: CredentialResolver = {
  name: 'oauth',
  ambient: false,
  async resolve(request: CredentialRequest): Promise<UserPrincipal | null> {
    const match = /^Bearer +(\S+)$/i.exec(request.header('authorization')?.trim() ?? '');
    if (!match || !match[1]!.startsWith(accessTokenPrefix)) return null;
    const row = await store.findAccessTokenWithUser(request.db, hashSecret(match[1]!));
    if (!row || row.disabled === 1 || Date.parse(row.expiresAt) <= request.clock.now().getTime()) throw unauthorized();
    if (row.audience !== audienceForPath(new URL(request.url).pathname)) throw unauthorized();
    return userPrincipal(row, effectiveScopes(parseScopes(row.scopes), row.role), { type: 'oauth', id: row.grantId });
  },
};
