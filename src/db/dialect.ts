import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from './connection.ts';

/**
 * The SQL that differs between SQLite and PostgreSQL. Domain stores call these helpers and never ask
 * which engine they are on.
 */

/**
 * Locks the selected rows until the transaction ends. PostgreSQL needs FOR UPDATE; SQLite has one
 * writer at a time, so its write transactions are already serialized.
 */
export function lockRows<DB, TB extends keyof DB, O>(db: Db, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return db.dialect === 'postgres' ? query.forUpdate() : query;
}

/** True when an error is the engine's unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Case-insensitive "contains" on a column, with the user's `%` and `_` matched literally. The escape
 * character is named explicitly: PostgreSQL defaults to backslash, SQLite has none.
 */
export function containsInsensitive(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Runs `work` in one transaction with a Db bound to it; a throw rolls everything back. */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute((trx) => work({ ...db, kysely: trx }));
}
