import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { lockRows } from '../db/dialect.ts';
import type { PasskeysTable } from '../db/types.ts';

export type PasskeyRow = Selectable<PasskeysTable>;

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function toPasskey(row: PasskeyRow): Passkey {
  return { id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}

export async function insertPasskey(db: Db, row: PasskeyRow): Promise<void> {
  await db.kysely.insertInto('passkeys').values(row).execute();
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.kysely.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

export async function listPasskeyRows(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db.kysely.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id', 'asc').execute();
}

/**
 * Locks the user's row for the rest of the transaction: adding and removing passkeys of one user take
 * turns, so two deletions cannot both find another passkey left, nor two registrations pass the cap.
 */
export async function lockUser(db: Db, userId: string): Promise<void> {
  await lockRows(db, db.kysely.selectFrom('users').select('id').where('id', '=', userId)).execute();
}

export async function recordUse(db: Db, id: string, counter: number, at: string): Promise<void> {
  await db.kysely.updateTable('passkeys').set({ counter, last_used_at: at }).where('id', '=', id).execute();
}

export async function renamePasskeyRow(db: Db, userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
  return db.kysely.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
}

export async function deletePasskeyRow(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.kysely.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
