import type { CompiledQuery, Compilable, Insertable, Kysely } from 'kysely';
import type { Db } from './connection.ts';
import type { Database } from './types.ts';

const compiledByDatabase = new WeakMap<object, Map<string, CompiledQuery>>();

/**
 * Runs a query on every request without building and compiling it each time: `build` runs once per
 * database with placeholder values, then each call swaps in its own parameters, in the order the
 * builder bound them. For the hottest paths only (authentication, settings).
 */
export async function runCompiled<Row>(db: Db, key: string, build: (kysely: Kysely<Database>) => Compilable<Row>, parameters: readonly unknown[]): Promise<Row[]> {
  let compiled = compiledByDatabase.get(db.identity);
  if (!compiled) compiledByDatabase.set(db.identity, (compiled = new Map()));
  let query = compiled.get(key) as CompiledQuery<Row> | undefined;
  if (!query) {
    query = build(db.kysely).compile();
    if (query.parameters.length !== parameters.length) {
      throw new Error(`compiled query ${key} binds ${query.parameters.length} parameters, called with ${parameters.length}`);
    }
    compiled.set(key, query);
  }
  return runQuery(db, query, parameters);
}

/** Runs a compiled query: read at once when nothing else holds the connection (Db.readAtOnce), through Kysely otherwise. */
export async function runQuery<Row>(db: Db, query: CompiledQuery<Row>, parameters: readonly unknown[] = query.parameters): Promise<Row[]> {
  const rows = db.readAtOnce?.(query.sql, parameters);
  if (rows !== undefined) return rows as Row[];
  const result = await db.kysely.executeQuery<Row>({ ...query, parameters });
  return result.rows;
}

/** Bound values per statement, within both engines' limits (SQLite 32,766; PostgreSQL 65,535). */
const valuesPerStatement = 30_000;
/** Rows per statement at most, whatever the width: past this a longer statement saves nothing more. */
const rowsPerStatement = 256;

/**
 * Inserts a batch of rows of the same columns (the first row's keys). Each statement holds a power of
 * two of rows (a batch of 500 is 256 + 128 + 64 + 32 + 16 + 4), so every batch, whatever its size,
 * runs through a few statements compiled once per table and shape: building a 500-row insert with the
 * query builder, and preparing its new SQL text, cost more than SQLite's work of storing the rows.
 */
export async function insertRows<T extends keyof Database & string>(db: Db, table: T, rows: readonly Insertable<Database[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!) as (keyof Insertable<Database[T]> & string)[];
  let size = largestPowerOfTwoAtMost(Math.min(rowsPerStatement, Math.max(1, Math.floor(valuesPerStatement / columns.length))));
  for (let start = 0; start < rows.length; ) {
    while (size > rows.length - start) size /= 2;
    const chunk = rows.slice(start, start + size);
    const values = chunk.map((row) => columns.map((column) => row[column] ?? null));
    const build = (kysely: Kysely<Database>) => kysely.insertInto(table).values(values.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index]]))) as Insertable<Database[T]>[]);
    await runCompiled(db, `insertRows:${table}:${columns.join(',')}:${size}`, build, values.flat());
    start += size;
  }
}

function largestPowerOfTwoAtMost(limit: number): number {
  let size = 1;
  while (size * 2 <= limit) size *= 2;
  return size;
}
