import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { Row } from '../db/snapshot.ts';
import type { SiteRestoresTable } from '../db/types.ts';
import { limitLiteral } from '../db/dialect.ts';

/** The SQL of a site archive's restore (docs/decisions/0061). */

type AnyTables = Kysely<Record<string, Record<string, unknown>>>;
const loose = (db: Db) => db.kysely as unknown as AnyTables;

export async function findRestore(db: Db): Promise<SiteRestoresTable | undefined> {
  return db.kysely.selectFrom('site_restores').selectAll().executeTakeFirst();
}

export async function startRestore(db: Db, row: SiteRestoresTable): Promise<void> {
  await db.kysely.insertInto('site_restores').values(row).execute();
}

/** Where the restore is: the last member wholly restored, the lines of the next one written, the report so far. In the transaction that wrote them. */
export async function saveProgress(db: Db, archiveSha256: string, progress: { lastMember: number; memberRows: number; report: string; now: string }): Promise<void> {
  await db.kysely
    .updateTable('site_restores')
    .set({ last_member: progress.lastMember, member_rows: progress.memberRows, report: progress.report, updated_at: progress.now })
    .where('archive_sha256', '=', archiveSha256)
    .execute();
}

export async function endRestore(db: Db, archiveSha256: string): Promise<void> {
  await db.kysely.deleteFrom('site_restores').where('archive_sha256', '=', archiveSha256).execute();
}

/** Those of `tables` that hold at least one row. */
export async function tablesWithRows(db: Db, tables: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) {
    const row = await loose(db).selectFrom(table).select(sql<number>`1`.as('found')).limit(limitLiteral(1)).executeTakeFirst();
    if (row !== undefined) found.push(table);
  }
  return found;
}

export async function allUserIds(db: Db): Promise<string[]> {
  return (await db.kysely.selectFrom('users').select('id').execute()).map((row) => row.id);
}

/** The target's users that have one of `ids`, or one of `emails`. */
export async function usersByIdOrEmail(db: Db, ids: readonly string[], emails: readonly string[]): Promise<{ id: string; email: string }[]> {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('users')
    .select(['id', 'email'])
    .where((where) => where.or([where('id', 'in', ids), where('email', 'in', emails)]))
    .execute();
}

/** SQLite allows 32,766 parameters a statement, PostgreSQL 65,535: a statement stays under both. */
const parametersPerStatement = 30_000;

/**
 * Inserts the rows, each only where no row has its key (or another unique value) yet; `replace`
 * overwrites such a row instead. Returns the rows not inserted (each the row as given).
 */
export async function insertRows(db: Db, table: string, rows: readonly Row[], options: { key: readonly string[]; replace: boolean }): Promise<Row[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!);
  const perStatement = Math.max(1, Math.min(500, Math.floor(parametersPerStatement / columns.length)));
  const inserted = new Set<string>();
  const keyOf = (row: Row) => JSON.stringify(options.key.map((column) => row[column]));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const query = loose(db)
      .insertInto(table)
      .values(chunk as Record<string, unknown>[])
      .onConflict((conflict) =>
        options.replace
          ? conflict.columns(options.key as string[]).doUpdateSet(Object.fromEntries(columns.filter((column) => !options.key.includes(column)).map((column) => [column, sql.ref(`excluded.${column}`)])))
          : conflict.doNothing(),
      )
      .returning(options.key.map((column) => sql.ref(column).as(column)));
    for (const row of await query.execute()) inserted.add(keyOf(row as Row));
  }
  return rows.filter((row) => !inserted.has(keyOf(row)));
}

/** The scheduled entries of an entry table, to queue their publications again. */
export async function scheduledEntries(db: Db, table: string): Promise<{ id: string; at: string }[]> {
  const rows = await loose(db).selectFrom(table).select([sql<string>`_id`.as('id'), sql<string>`_scheduled_at`.as('at')]).where('_status', '=', 'scheduled').where('_scheduled_at', 'is not', null).execute();
  return rows as { id: string; at: string }[];
}

/** Storage keys the media rows name (originals and derived images), what a failed restore removes from storage. */
export async function mediaKeys(db: Db): Promise<string[]> {
  const originals = await db.kysely.selectFrom('media').select('storage_key').execute();
  const derived = await db.kysely.selectFrom('media_derivatives').select('storage_key').execute();
  return [...originals, ...derived].map((row) => row.storage_key);
}

export async function deleteAllRows(db: Db, table: string): Promise<void> {
  await loose(db).deleteFrom(table).execute();
}

export async function allRows(db: Db, table: string): Promise<Row[]> {
  return (await loose(db).selectFrom(table).selectAll().execute()) as Row[];
}

export async function columnValues(db: Db, table: string, column: string): Promise<string[]> {
  return (await loose(db).selectFrom(table).select(sql<string>`${sql.ref(column)}`.as('value')).execute()).map((row) => String(row.value));
}

/** Deletes every row of `table` whose `column` is not one of `kept` (the rows are read first: `kept` may be longer than a statement's parameters allow). */
export async function deleteRowsExcept(db: Db, table: string, column: string, kept: readonly string[]): Promise<void> {
  if (kept.length === 0) return deleteAllRows(db, table);
  const keep = new Set(kept);
  const gone = (await columnValues(db, table, column)).filter((value) => !keep.has(value));
  for (let start = 0; start < gone.length; start += 1000) {
    await loose(db).deleteFrom(table).where(sql.ref(column), 'in', gone.slice(start, start + 1000)).execute();
  }
}

/** The media type of the original or derived image stored at `key`. */
export async function mediaTypeOf(db: Db, key: string): Promise<string | undefined> {
  const original = await db.kysely.selectFrom('media').select('mime_type').where('storage_key', '=', key).executeTakeFirst();
  if (original !== undefined) return original.mime_type;
  return (await db.kysely.selectFrom('media_derivatives').select('mime_type').where('storage_key', '=', key).executeTakeFirst())?.mime_type;
}
