import type { Insertable } from 'kysely';
import { newId } from '../core/ids.ts';
import type { OAuthTokensTable } from '../db/types.ts';
import type { Db } from '../db/connection.ts';
import { hashSecret } from '../auth/secrets.ts';
import type { Audience } from './urls.ts';
import { accessTokenPrefix, randomSecret, refreshTokenPrefix } from './secrets.ts';
import * as store from './store.ts';

/** Access tokens live an hour (DECISIONS §6); a refresh token a month unless used (then it rotates). */
export const accessTokenLifetimeMs = 3_600_000;
export const refreshTokenLifetimeMs = 30 * 86_400_000;

/** RFC 6749 §5.1, without null members. */
export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface Issue {
  grantId: string;
  /** The family of an authorization; a refresh continues its token's family. */
  familyId: string;
  scopes: string;
  audience: Audience;
}

/** A new access and refresh token, and the rows (only their hashes) that make them valid once saved. */
export interface Minted {
  pair: TokenPair;
  rows: Insertable<OAuthTokensTable>[];
}

export function mintTokens(now: Date, issue: Issue): Minted {
  const access = randomSecret(accessTokenPrefix);
  const refresh = randomSecret(refreshTokenPrefix);
  const common = { family_id: issue.familyId, grant_id: issue.grantId, scopes: issue.scopes, audience: issue.audience, created_at: now.toISOString(), used_at: null, successor: null };
  return {
    pair: { access_token: access, token_type: 'Bearer', expires_in: accessTokenLifetimeMs / 1000, refresh_token: refresh, scope: issue.scopes },
    rows: [
      { ...common, token_hash: hashSecret(access), kind: 'access', expires_at: new Date(now.getTime() + accessTokenLifetimeMs).toISOString() },
      { ...common, token_hash: hashSecret(refresh), kind: 'refresh', expires_at: new Date(now.getTime() + refreshTokenLifetimeMs).toISOString() },
    ],
  };
}

export async function saveTokens(db: Db, now: Date, grantId: string, minted: Minted): Promise<void> {
  await store.insertTokens(db, minted.rows);
  await store.touchGrant(db, grantId, now.toISOString());
}

/** Mints and saves a pair in one step (code and device grants, which decide before they mint). */
export async function issueTokens(db: Db, now: Date, issue: Issue): Promise<TokenPair> {
  const minted = mintTokens(now, issue);
  await saveTokens(db, now, issue.grantId, minted);
  return minted.pair;
}

export function newFamily(): string {
  return newId();
}
