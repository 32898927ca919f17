import SqliteDatabase from 'better-sqlite3';
import { entryTableName } from './entry-tables.ts';

/**
 * The SQLite half of `folio backup` (docs/decisions/0060): a consistent copy of a database other
 * processes keep writing, and what a copy holds, read without changing it.
 */

/**
 * Copies the database at `source` into a new file `target` with `VACUUM INTO`: one read transaction,
 * so the copy is the database as one commit left it, while the server's writers go on (WAL readers
 * block no writer). The copy is switched out of WAL so that it is one self-contained file.
 */
export function copySqliteDatabase(source: string, target: string): void {
  const database = new SqliteDatabase(source, { fileMustExist: true });
  try {
    // The server may hold the write lock for a moment while it checkpoints; wait as the CLI's other commands do.
    database.pragma('busy_timeout = 5000');
    database.prepare('vacuum into ?').run(target);
  } finally {
    database.close();
  }
  const copy = new SqliteDatabase(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** The tables whose row counts a backup's manifest records, when the copy has them; `entries` counts every collection's entries. */
const countedTables = ['users', 'collections', 'media', 'terms', 'menus', 'menu_items', 'comments', 'revisions'] as const;

/** A media file a copy's rows name: an uploaded original, or an image a transform made from one. */
export interface NamedMediaFile {
  key: string;
  kind: 'original' | 'derivative';
}

export interface SqliteCopyContents {
  /** `PRAGMA integrity_check`'s findings; empty when it says ok. */
  integrityProblems: string[];
  /** The migrations applied to the copy, in order. */
  migrations: string[];
  counts: Record<string, number>;
  media: NamedMediaFile[];
}

/**
 * Opens a copy read-only and reads what a backup records and checks. Throws the engine's error when
 * the file is not a database at all (truncated, or not SQLite).
 */
export function readSqliteCopy(file: string): SqliteCopyContents {
  const database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = database.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const integrityProblems = integrity.map((row) => row.integrity_check).filter((line) => line !== 'ok');
    const tables = new Set(database.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[]);
    const countOf = (table: string) => database.prepare(`select count(*) from "${table}"`).pluck().get() as number;
    const counts: Record<string, number> = {};
    for (const table of countedTables) if (tables.has(table)) counts[table] = countOf(table);
    if (tables.has('collections')) {
      const ids = database.prepare('select id from collections').pluck().all() as string[];
      counts.entries = ids.map(entryTableName).filter((table) => tables.has(table)).reduce((sum, table) => sum + countOf(table), 0);
    }
    const migrations = tables.has('folio_migrations') ? (database.prepare('select name from folio_migrations order by name').pluck().all() as string[]) : [];
    const media: NamedMediaFile[] = [];
    if (tables.has('media')) {
      for (const key of database.prepare('select storage_key from media order by storage_key').pluck().all() as string[]) media.push({ key, kind: 'original' });
    }
    if (tables.has('media_derivatives')) {
      for (const key of database.prepare('select storage_key from media_derivatives order by storage_key').pluck().all() as string[]) media.push({ key, kind: 'derivative' });
    }
    return { integrityProblems, migrations, counts, media };
  } finally {
    database.close();
  }
}
