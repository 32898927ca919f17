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

/**
 * Shares a lock on the selected rows with other readers of the same mode until the transaction ends,
 * holding off writers that lock them for update. SQLite's write transactions are serialized already.
 */
export function lockRowsShared<DB, TB extends keyof DB, O>(db: Db, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return db.dialect === 'postgres' ? query.forShare() : query;
}

/**
 * True when a statement named a table or column that a schema change removed while the request ran
 * (a read outside a transaction can meet a concurrent schema change).
 */
export function isMissingSchemaObject(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '42703' || code === '42P01' || (code === 'SQLITE_ERROR' && /no such (column|table)/.test(message ?? ''));
}

/** True when an error is the engine's unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Runs a write; false when the engine refused it as a duplicate of a unique value (a name, a slug, a key taken). */
export async function succeedsUnlessTaken(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** True when an error is the engine's foreign-key violation (a row that points at one since deleted). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * True when the engine refused a row for what it holds: a constraint (NOT NULL, unique, foreign key,
 * check; SQLSTATE class 23) or a value of the wrong kind (class 22), not an outage or a bug in a statement.
 */
export function isRowRefused(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CONSTRAINT') || code.startsWith('SQLITE_MISMATCH') || /^2[23][0-9A-Z]{3}$/.test(code));
}

/**
 * Case-insensitive "contains" on a column (or an expression over columns, such as an entry's live
 * value), with the user's `%` and `_` matched literally. The escape character is named explicitly:
 * PostgreSQL defaults to backslash, SQLite has none.
 */
export function containsInsensitive(value: string | RawBuilder<unknown>, text: string): RawBuilder<boolean> {
  const operand = typeof value === 'string' ? sql.ref(value) : value;
  return sql<boolean>`lower(${operand}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}

/**
 * Case-insensitive "contains" on the strings of a JSON array kept in a text column (a section's
 * keywords): each string is matched on its own, so the array's quotes, commas and escapes never match
 * and no match spans two strings. SQLite reads the array with json_each, PostgreSQL with
 * jsonb_array_elements_text.
 */
export function jsonArrayContainsInsensitive(db: Db, column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${escapeLike(text.toLowerCase())}%`;
  if (db.dialect === 'postgres') {
    return sql<boolean>`exists (select 1 from jsonb_array_elements_text(cast(${sql.ref(column)} as jsonb)) as element(value) where lower(element.value) like ${pattern} escape '\\')`;
  }
  return sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}) as element where lower(element.value) like ${pattern} escape '\\')`;
}

/**
 * `column in (values)` with the values bound as one list, so the statement's text is the same for any
 * number of them and is prepared once (a list of placeholders makes a new statement for each count).
 * SQLite reads a JSON array with json_each; PostgreSQL takes an array.
 */
export function inBoundList(db: Db, column: string, values: readonly (string | number)[]): RawBuilder<boolean> {
  if (db.dialect === 'postgres') return sql<boolean>`${sql.ref(column)} = any(${[...values]})`;
  return sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}

/** "Starts with", the user's `%` and `_` matched literally; for lower-case text (SQLite LIKE ignores ASCII case). */
export function startsWith(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${`${escapeLike(text)}%`} escape '\\'`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Makes transactions that take the same key run one after another (until commit), for rules that
 * span several rows no single row lock covers. PostgreSQL: a transaction-scoped advisory lock;
 * SQLite's write transactions are serialized already.
 */
export async function serializeTransactions(db: Db, key: number): Promise<void> {
  if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(key)})`.execute(db.kysely);
}

/** A Db bound to one transaction. */
export interface Transaction extends Db {
  /**
   * Runs `callback` once the transaction has committed, never when it rolls back: for what must not
   * be seen before the write is (a notification, a cache to drop). Callbacks must not throw.
   */
  afterCommit(callback: () => void): void;
}

/** Runs `work` in one transaction with a Db bound to it; a throw rolls everything back. */
export async function inTransaction<T>(db: Db, work: (trx: Transaction) => Promise<T>): Promise<T> {
  const committed: (() => void)[] = [];
  // SQLite's write transactions begin IMMEDIATE: nobody else commits until this one ends, so cached
  // reads stay exact inside it, checked against the stamp as it is at each read.
  const run = db.writeTransaction ?? ((inside) => db.kysely.transaction().execute(inside));
  const result = await run((trx) => work({ ...db, kysely: trx, changeStamp: db.currentChangeStamp, afterCommit: (callback) => committed.push(callback) }));
  for (const callback of committed) callback();
  return result;
}

/**
 * Locks the selected rows, skipping rows another transaction holds, so several processes can share
 * a queue without waiting on each other. SQLite's write transactions are serialized already.
 */
export function lockRowsSkipLocked<DB, TB extends keyof DB, O>(db: Db, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return db.dialect === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/**
 * Brings the query planner's statistics up to date where the tables have changed much since they
 * were gathered (docs/decisions/0031). Statistics gathered while the search index was nearly empty
 * (an ANALYZE, or an operator's PRAGMA optimize, on a new site) made FTS5's own statements choose
 * plans for a two-row table: a rebuild of 100,000 entries took 132 s instead of 41 s. SQLite:
 * `PRAGMA optimize` over every table (flag 0x10000), sampling at most `analysis_limit` rows per
 * index, about 0.1 s on a 1 GB database. PostgreSQL: autovacuum already analyzes a table that
 * changed much, so nothing is done here.
 */
export async function refreshPlannerStatistics(db: Db): Promise<void> {
  if (db.dialect === 'sqlite') await sql`pragma optimize = 0x10002`.execute(db.kysely);
}

/**
 * A LIMIT written into the statement as an integer literal, for a count the caller has validated.
 * SQLite reads a bound LIMIT's value while it plans the statement (sqlite3.c, computeLimitRegisters),
 * and so marks the statement to be prepared again whenever that parameter is bound: each run
 * (better-sqlite3 binds every run) prepared the statement anew, under every step. Written in, the
 * statement text is one per page size, prepared once and kept (connection.ts's statement cache). The
 * same text suits PostgreSQL.
 */
export function limitLiteral(count: number): RawBuilder<number> {
  if (!Number.isSafeInteger(count) || count < 0) throw new Error(`A LIMIT must be a non-negative integer, not ${count}`);
  return sql.lit(count);
}
