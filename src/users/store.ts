import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { containsInsensitive, limitLiteral, lockRows } from '../db/dialect.ts';
import type { UsersTable } from '../db/types.ts';
import { roles } from '../core/roles.ts';
import type { User } from './schemas.ts';

export type UserRow = Selectable<UsersTable>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

export async function insertUser(db: Db, row: UserRow): Promise<void> {
  await db.kysely.insertInto('users').values(row).execute();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether anyone has an account yet (a fresh installation has none). */
export async function hasAnyUser(db: Db): Promise<boolean> {
  return (await db.kysely.selectFrom('users').select('id').limit(limitLiteral(1)).executeTakeFirst()) !== undefined;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.kysely.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export interface UserListFilter {
  role?: number;
  search?: string;
  afterId?: string;
  limit: number;
}

/** Users in id (creation) order, one row past the page so the caller knows whether more follow. */
export async function listUserRows(db: Db, filter: UserListFilter): Promise<UserRow[]> {
  let query = db.kysely.selectFrom('users').selectAll().orderBy('id', 'asc').limit(limitLiteral(filter.limit + 1));
  if (filter.role !== undefined) query = query.where('role', '=', filter.role);
  if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
  if (filter.search !== undefined) {
    const text = filter.search;
    query = query.where(({ or }) => or([containsInsensitive('name', text), containsInsensitive('email', text)]));
  }
  return query.execute();
}

export async function updateUserRow(db: Db, id: string, changes: Partial<Omit<UserRow, 'id' | 'created_at'>>): Promise<void> {
  await db.kysely.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** The ids of enabled admins, locked for the rest of the transaction so two demotions cannot race. */
export async function lockActiveAdminIds(db: Db): Promise<string[]> {
  const rows = await lockRows(
    db,
    db.kysely.selectFrom('users').select('id').where('role', '=', roles.admin).where('disabled', '=', 0),
  ).execute();
  return rows.map((row) => row.id);
}
