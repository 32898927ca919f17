import type { Clock } from '../core/clock.ts';
import { userPrincipal, type UserPrincipal } from '../core/context.ts';
import { unauthorized } from '../core/errors.ts';
import { effectiveScopes } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import type { CredentialResolver } from '../http/credentials.ts';
import { hashSecret } from './secrets.ts';
import { findTokenWithUser, parseScopes, touchToken } from './store.ts';

// Writing last-used on every request would turn each read into a write; a minute's precision is plenty.
const lastUsedPrecisionMs = 60_000;

/**
 * Resolves an `Authorization` header to the acting user. No header: null (the operation decides
 * whether that is allowed). Anything else that is not a live token of an enabled user: the one 401.
 */
export async function authenticateBearer(db: Db, clock: Clock, header: string | undefined): Promise<UserPrincipal | null> {
  if (header === undefined) return null;
  const match = /^Bearer +([\x21-\x7e]{1,512})$/i.exec(header.trim());
  if (!match) throw unauthorized();
  const row = await findTokenWithUser(db, hashSecret(match[1]!));
  const now = clock.now();
  if (!row || row.disabled === 1 || (row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime())) {
    throw unauthorized();
  }
  if (row.lastUsedAt === null || now.getTime() - Date.parse(row.lastUsedAt) >= lastUsedPrecisionMs) {
    // Bookkeeping only: a write that fails (the database busy with another process's write) must not
    // refuse a valid credential; the next request tries again.
    await touchToken(db, row.tokenId, now.toISOString()).catch(() => undefined);
  }
  return userPrincipal(row, effectiveScopes(parseScopes(row.scopes), row.role), { type: 'token', id: row.tokenId });
}

/** `Authorization: Bearer <personal access token>`. */
export const bearerTokens: CredentialResolver = {
  name: 'bearer',
  ambient: false,
  resolve: (request) => authenticateBearer(request.db, request.clock, request.header('authorization')),
};
