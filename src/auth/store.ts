import type { Selectable } from 'kysely';
import { runCompiled } from '../db/compiled.ts';
import type { Db } from '../db/connection.ts';
import { ReadCache } from '../db/read-cache.ts';
import type { ApiTokensTable } from '../db/types.ts';
import { isScope, type Scope } from '../core/roles.ts';
import type { Token } from './schemas.ts';

export type TokenRow = Selectable<ApiTokensTable>;

export function parseScopes(stored: string): Scope[] {
  return stored.split(' ').filter(isScope);
}

export function toToken(row: TokenRow): Token {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    scopes: parseScopes(row.scopes),
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
  };
}

export async function insertToken(db: Db, row: TokenRow): Promise<void> {
  await db.kysely.insertInto('api_tokens').values(row).execute();
}

type TokenWithUser = NonNullable<Awaited<ReturnType<typeof queryTokenWithUser>>>;
const tokenCache = new ReadCache<TokenWithUser>(10_000, ['api_tokens', 'users']);

/** The token with its user: the whole cost of authenticating a request, usually served from memory. */
export async function findTokenWithUser(db: Db, tokenHash: string): Promise<TokenWithUser | undefined> {
  return tokenCache.get(db, tokenHash, () => queryTokenWithUser(db, tokenHash));
}

async function queryTokenWithUser(db: Db, tokenHash: string) {
  const rows = await runCompiled(
    db,
    'auth.findTokenWithUser',
    (kysely) =>
      kysely
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .select([
          'api_tokens.id as tokenId',
          'api_tokens.scopes',
          'api_tokens.expires_at as expiresAt',
          'api_tokens.last_used_at as lastUsedAt',
          'users.id as userId',
          'users.email',
          'users.name',
          'users.role',
          'users.disabled',
        ])
        .where('api_tokens.token_hash', '=', ''),
    [tokenHash],
  );
  return rows[0];
}

export async function touchToken(db: Db, id: string, at: string): Promise<void> {
  await db.kysely.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}

export async function listTokenRows(db: Db, userId?: string): Promise<TokenRow[]> {
  let query = db.kysely.selectFrom('api_tokens').selectAll().orderBy('id', 'asc');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.execute();
}

export async function deleteToken(db: Db, id: string): Promise<boolean> {
  const result = await db.kysely.deleteFrom('api_tokens').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
