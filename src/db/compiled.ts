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
  const result = await db.kysely.executeQuery<Row>({ ...query, parameters });
  return result.rows;
}

/**
 * Inserts one row of plain values through a statement compiled once per table and column list (the
 * row's keys, in order): for rows written beside every content write (an audit record, an outbox
 * delivery), where building the statement cost as much as running it.
 */
export async function insertRow<T extends keyof Database & string>(db: Db, table: T, row: Insertable<Database[T]>): Promise<void> {
  const columns = Object.keys(row);
  await runCompiled(db, `insert:${table}:${columns.join(',')}`, (kysely) => kysely.insertInto(table).values(row), Object.values(row));
}

/** Bound values per statement, within both engines' limits (SQLite 32,766; PostgreSQL 65,535). */
const valuesPerStatement = 30_000;

/** Inserts a batch of rows of the same columns in as few statements as the engines' limits allow. */
export async function insertRows<T extends keyof Database & string>(db: Db, table: T, rows: readonly Insertable<Database[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const perStatement = Math.max(1, Math.floor(valuesPerStatement / Object.keys(rows[0]!).length));
  for (let start = 0; start < rows.length; start += perStatement) {
    await db.kysely.insertInto(table).values(rows.slice(start, start + perStatement) as Insertable<Database[T]>[]).execute();
  }
}
