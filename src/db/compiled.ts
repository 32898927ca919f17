import type { CompiledQuery, Compilable, Kysely } from 'kysely';
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
