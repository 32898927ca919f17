import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Db } from './connection.ts';
import type { Database } from './types.ts';

/**
 * A read of the whole database as one commit left it, while the server keeps writing (the site
 * archive's export, docs/decisions/0061). SQLite: a connection of its own in one read transaction (WAL
 * readers hold up no writer, and the server's connection stays free for its requests). PostgreSQL:
 * one pooled connection in a `REPEATABLE READ READ ONLY` transaction, rows fetched from a cursor.
 * Either way rows come in batches, so no table is ever held whole.
 */

export type Row = Record<string, unknown>;

export interface Snapshot {
  dialect: Db['dialect'];
  /** Every table of the database. */
  tables: ReadonlySet<string>;
  /**
   * The rows of `table`, a batch at a time. With `parent`, each row comes after the row its parent
   * column names (a tree, roots first), so they can be inserted in that order. With `orderBy`, in
   * the order of those columns, text compared byte by byte, the same on both engines (a move's
   * comparison walks both sides together, docs/decisions/0062).
   */
  rows(table: string, options?: RowOrder): AsyncGenerator<Row[]>;
}

/** How a snapshot's rows come: as stored, parents before their children, or by key. */
export interface RowOrder {
  parent?: string;
  orderBy?: readonly string[];
}

const batchSize = 500;

export async function withSnapshot<T>(db: Db, sqlitePath: string | undefined, work: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  if (db.dialect === 'sqlite') {
    if (sqlitePath === undefined) throw new Error('A SQLite snapshot needs the database file');
    return withSqliteSnapshot(sqlitePath, work);
  }
  return db.kysely.connection().execute((connection) => withPostgresSnapshot(connection, work));
}

/** The rows in an order an insert can follow (by depth in the tree when the table is one), or by key. */
function selectText(table: string, { parent, orderBy }: RowOrder, textColumns: ReadonlySet<string> = new Set()): string {
  const t = quoteName(table);
  if (orderBy !== undefined) {
    // Text in PostgreSQL's "C" collation compares UTF-8 bytes, as SQLite's default does (which its key indexes follow); numbers compare as numbers on both.
    return `select * from ${t} order by ${orderBy.map((column) => `${quoteName(column)}${textColumns.has(column) ? ' collate "C"' : ''}`).join(', ')}`;
  }
  if (parent === undefined) return `select * from ${t}`;
  const p = quoteName(parent);
  return `with recursive tree (id, depth) as (select id, 0 from ${t} where ${p} is null union all select child.id, tree.depth + 1 from ${t} child join tree on child.${p} = tree.id) select ${t}.* from ${t} join tree on ${t}.id = tree.id order by tree.depth, ${t}.id`;
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function withSqliteSnapshot<T>(file: string, work: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  const database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    database.exec('begin');
    // A deferred transaction takes its snapshot at its first read: this one.
    const tables = new Set(database.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[]);
    return await work({
      dialect: 'sqlite',
      tables,
      async *rows(table, options = {}) {
        let batch: Row[] = [];
        for (const row of database.prepare(selectText(table, options)).iterate() as IterableIterator<Row>) {
          batch.push(row);
          if (batch.length === batchSize) {
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
      },
    });
  } finally {
    if (database.inTransaction) database.exec('rollback');
    database.close();
  }
}

async function withPostgresSnapshot<T>(connection: Kysely<Database>, work: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  await sql`begin isolation level repeatable read read only`.execute(connection);
  try {
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_catalog.pg_tables where schemaname = current_schema()`.execute(connection);
    const result = await work({
      dialect: 'postgres',
      tables: new Set(rows.map((row) => row.name)),
      async *rows(table, options = {}) {
        const textColumns = options.orderBy === undefined ? undefined : await textColumnsOf(connection, table);
        await sql`declare folio_snapshot no scroll cursor for ${sql.raw(selectText(table, options, textColumns))}`.execute(connection);
        try {
          for (;;) {
            const { rows: batch } = await sql<Row>`fetch forward ${sql.lit(batchSize)} from folio_snapshot`.execute(connection);
            if (batch.length === 0) break;
            yield batch;
          }
        } finally {
          await sql`close folio_snapshot`.execute(connection);
        }
      },
    });
    await sql`commit`.execute(connection);
    return result;
  } catch (error) {
    await sql`rollback`.execute(connection).catch(() => undefined);
    throw error;
  }
}

/** The table's text columns: the ones a byte-wise order needs the "C" collation for. */
async function textColumnsOf(connection: Kysely<Database>, table: string): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} and data_type = 'text'`.execute(connection);
  return new Set(rows.map((row) => row.name));
}
