import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { Row } from '../db/snapshot.ts';
import type { SiteMovesTable } from '../db/types.ts';

/** The SQL of `folio move`'s record in the target (migration 0032, docs/decisions/0062). */

export async function findMove(db: Db, source: string): Promise<SiteMovesTable | undefined> {
  return db.kysely.selectFrom('site_moves').selectAll().where('source', '=', source).executeTakeFirst();
}

export async function recordCopy(db: Db, source: string, now: string): Promise<void> {
  await db.kysely
    .insertInto('site_moves')
    .values({ source, copied_at: now, caught_up_at: null })
    .onConflict((conflict) => conflict.column('source').doUpdateSet({ copied_at: now, caught_up_at: null }))
    .execute();
}

export async function recordCatchUp(db: Db, source: string, now: string): Promise<void> {
  await db.kysely.updateTable('site_moves').set({ caught_up_at: now }).where('source', '=', source).execute();
}

type AnyTables = Kysely<Record<string, Record<string, unknown>>>;
const loose = (db: Db) => db.kysely as unknown as AnyTables;

/** Rows a statement names at most: far under either engine's limit of parameters. */
const rowsPerStatement = 500;

/** Deletes the rows with these keys (each row as read, its key columns' values as stored). */
export async function deleteRowsByKey(db: Db, table: string, key: readonly string[], rows: readonly Row[]): Promise<void> {
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const chunk = rows.slice(start, start + rowsPerStatement);
    await loose(db)
      .deleteFrom(table)
      .where((where) => where.or(chunk.map((row) => where.and(key.map((column) => where(column, '=', row[column]))))))
      .execute();
  }
}

/** Unhooks the children of rows about to go from a tree whose parent column does not cascade. */
export async function detachChildren(db: Db, table: string, parent: string, parentIds: readonly unknown[]): Promise<void> {
  for (let start = 0; start < parentIds.length; start += rowsPerStatement) {
    await loose(db)
      .updateTable(table)
      .set({ [parent]: null })
      .where(parent, 'in', parentIds.slice(start, start + rowsPerStatement))
      .execute();
  }
}
