import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { OAuthClientsTable, OAuthCodesTable, OAuthDeviceCodesTable, OAuthGrantsTable, OAuthTokensTable } from '../db/types.ts';

/** The SQL of OAuth (decisions/0022). Secrets arrive here already hashed. */

export type ClientRow = Selectable<OAuthClientsTable>;
export type GrantRow = Selectable<OAuthGrantsTable>;
export type CodeRow = Selectable<OAuthCodesTable>;
export type DeviceCodeRow = Selectable<OAuthDeviceCodesTable>;
export type TokenRow = Selectable<OAuthTokensTable>;

export async function insertClient(db: Db, row: ClientRow): Promise<void> {
  await db.kysely.insertInto('oauth_clients').values(row).execute();
}

export async function findClientRow(db: Db, id: string): Promise<ClientRow | undefined> {
  return db.kysely.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A metadata document fetched again replaces the cached copy (its grants stay). */
export async function saveMetadataClient(db: Db, row: ClientRow): Promise<void> {
  await db.kysely
    .insertInto('oauth_clients')
    .values(row)
    .onConflict((conflict) => conflict.column('id').doUpdateSet({ name: row.name, redirect_uris: row.redirect_uris, metadata: row.metadata, stale_at: row.stale_at }))
    .execute();
}

export async function findGrant(db: Db, userId: string, clientId: string): Promise<GrantRow | undefined> {
  return db.kysely.selectFrom('oauth_grants').selectAll().where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
}

export async function findGrantById(db: Db, id: string): Promise<GrantRow | undefined> {
  return db.kysely.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertGrant(db: Db, row: GrantRow): Promise<void> {
  await db.kysely.insertInto('oauth_grants').values(row).execute();
}

export async function setGrantScopes(db: Db, id: string, scopes: string): Promise<void> {
  await db.kysely.updateTable('oauth_grants').set({ scopes }).where('id', '=', id).execute();
}

export async function touchGrant(db: Db, id: string, at: string): Promise<void> {
  await db.kysely.updateTable('oauth_grants').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Grants with their clients' names, newest first; one user's, or everyone's. */
export async function listGrants(db: Db, userId: string | undefined) {
  let query = db.kysely
    .selectFrom('oauth_grants')
    .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
    .select(['oauth_grants.id', 'oauth_grants.user_id', 'oauth_grants.client_id', 'oauth_clients.name as client_name', 'oauth_grants.scopes', 'oauth_grants.created_at', 'oauth_grants.last_used_at'])
    .orderBy('oauth_grants.id', 'desc');
  if (userId !== undefined) query = query.where('oauth_grants.user_id', '=', userId);
  return query.execute();
}

/** Deletes a grant and, by cascade, every code and token it gave. */
export async function deleteGrant(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('oauth_grants').where('id', '=', id).execute();
}

export async function insertConsentRequest(db: Db, row: { id_hash: string; user_id: string; client_id: string; request: string; expires_at: string }): Promise<void> {
  await db.kysely.insertInto('oauth_consent_requests').values(row).execute();
}

/** Takes the user's consent request: it is deleted as it is read, so a form posts once. */
export async function takeConsentRequest(db: Db, idHash: string, userId: string): Promise<{ client_id: string; request: string; expires_at: string } | undefined> {
  return db.kysely
    .deleteFrom('oauth_consent_requests')
    .where('id_hash', '=', idHash)
    .where('user_id', '=', userId)
    .returning(['client_id', 'request', 'expires_at'])
    .executeTakeFirst();
}

export async function insertCode(db: Db, row: CodeRow): Promise<void> {
  await db.kysely.insertInto('oauth_codes').values(row).execute();
}

export async function findCode(db: Db, codeHash: string): Promise<(CodeRow & { client_id: string; user_id: string }) | undefined> {
  return db.kysely
    .selectFrom('oauth_codes')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_codes.grant_id')
    .selectAll('oauth_codes')
    .select(['oauth_grants.client_id', 'oauth_grants.user_id'])
    .where('oauth_codes.code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** Marks a code spent by the family it started; false when another exchange spent it first. */
export async function spendCode(db: Db, codeHash: string, familyId: string): Promise<boolean> {
  const result = await db.kysely.updateTable('oauth_codes').set({ family_id: familyId }).where('code_hash', '=', codeHash).where('family_id', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertTokens(db: Db, rows: Insertable<OAuthTokensTable>[]): Promise<void> {
  await db.kysely.insertInto('oauth_tokens').values(rows).execute();
}

export async function findToken(db: Db, tokenHash: string): Promise<(TokenRow & { client_id: string; user_id: string; disabled: number }) | undefined> {
  return db.kysely
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .innerJoin('users', 'users.id', 'oauth_grants.user_id')
    .selectAll('oauth_tokens')
    .select(['oauth_grants.client_id', 'oauth_grants.user_id', 'users.disabled'])
    .where('oauth_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** An access token with its user: what authenticating a request with it costs. */
export async function findAccessTokenWithUser(db: Db, tokenHash: string) {
  return db.kysely
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .innerJoin('users', 'users.id', 'oauth_grants.user_id')
    .select(['oauth_tokens.grant_id as grantId', 'oauth_tokens.scopes', 'oauth_tokens.audience', 'oauth_tokens.expires_at as expiresAt', 'users.id as userId', 'users.email', 'users.name', 'users.role', 'users.disabled'])
    .where('oauth_tokens.token_hash', '=', tokenHash)
    .where('oauth_tokens.kind', '=', 'access')
    .executeTakeFirst();
}

/** Marks a refresh token spent with its sealed successor; false when a parallel refresh spent it first. */
export async function spendRefreshToken(db: Db, tokenHash: string, at: string, successor: string): Promise<boolean> {
  const result = await db.kysely
    .updateTable('oauth_tokens')
    .set({ used_at: at, successor })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteFamily(db: Db, familyId: string): Promise<void> {
  await db.kysely.deleteFrom('oauth_tokens').where('family_id', '=', familyId).execute();
}

export async function deleteToken(db: Db, tokenHash: string): Promise<void> {
  await db.kysely.deleteFrom('oauth_tokens').where('token_hash', '=', tokenHash).execute();
}

export async function insertDeviceCode(db: Db, row: DeviceCodeRow): Promise<void> {
  await db.kysely.insertInto('oauth_device_codes').values(row).execute();
}

export async function findDeviceCode(db: Db, deviceCodeHash: string): Promise<DeviceCodeRow | undefined> {
  return db.kysely.selectFrom('oauth_device_codes').selectAll().where('device_code_hash', '=', deviceCodeHash).executeTakeFirst();
}

export async function findDeviceCodeByUserCode(db: Db, userCode: string): Promise<DeviceCodeRow | undefined> {
  return db.kysely.selectFrom('oauth_device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst();
}

export async function recordDevicePoll(db: Db, deviceCodeHash: string, at: string, intervalSeconds: number): Promise<void> {
  await db.kysely.updateTable('oauth_device_codes').set({ last_polled_at: at, interval_seconds: intervalSeconds }).where('device_code_hash', '=', deviceCodeHash).execute();
}

/** Decides a pending device code; false when it was no longer pending. */
export async function decideDeviceCode(db: Db, userCode: string, decision: { status: 'approved' | 'denied'; grant_id: string | null; scopes: string }): Promise<boolean> {
  const result = await db.kysely.updateTable('oauth_device_codes').set(decision).where('user_code', '=', userCode).where('status', '=', 'pending').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Takes a decided device code (approved or denied) so its answer is given once. */
export async function takeDecidedDeviceCode(db: Db, deviceCodeHash: string): Promise<boolean> {
  const result = await db.kysely.deleteFrom('oauth_device_codes').where('device_code_hash', '=', deviceCodeHash).where('status', '!=', 'pending').executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Rows whose end has long passed (a day ago: a late poll still hears `expired_token`): tokens, codes,
 * consent requests and device codes.
 */
export async function deleteExpired(db: Db, before: string): Promise<void> {
  await db.kysely.deleteFrom('oauth_tokens').where('expires_at', '<', before).execute();
  await db.kysely.deleteFrom('oauth_codes').where('expires_at', '<', before).execute();
  await db.kysely.deleteFrom('oauth_consent_requests').where('expires_at', '<', before).execute();
  await db.kysely.deleteFrom('oauth_device_codes').where('expires_at', '<', before).execute();
}
