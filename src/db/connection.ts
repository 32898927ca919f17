import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import type { Database } from './types.ts';

export type Dialect = 'sqlite' | 'postgres';

/** A database handle: the Kysely instance plus the one fact about the engine that `db/` helpers need. */
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * A value that changes whenever a write, by this process or any other, may have changed what a read
   * returns; undefined where the engine has no cheap way to tell (then nothing is cached). See read-cache.ts.
   */
  changeStamp?: () => string;
  /**
   * The same database as one request sees it: other processes' changes are looked for once, at the
   * request's first cached read (they take effect from the next request); its own writes at once.
   */
  forRequest(): Db;
  close(): Promise<void>;
}

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** Opens the configured database and checks that it answers, so a bad DATABASE_URL fails at start. */
export async function openDatabase(config: DatabaseConfig): Promise<Db> {
  const db = config.kind === 'sqlite' ? openSqlite(config.path) : openPostgres(config.url, config.poolSize);
  try {
    await sql`select 1`.execute(db.kysely);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw new DatabaseUnavailableError(`Cannot reach the database (${describe(config)}): ${(error as Error).message}`);
  }
  return db;
}

function openSqlite(filePath: string): Db {
  if (filePath !== ':memory:') fs.mkdirSync(path.dirname(filePath), { recursive: true });
  const database = new SqliteDatabase(filePath);
  // WAL lets the CLI and readers work while the server writes; the busy timeout makes a second
  // process wait for the write lock instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const statements = withStatementCache(database);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  // data_version moves when another connection (another process, the CLI) commits; this connection's
  // own writes are counted as they run.
  const dataVersion = database.prepare('pragma data_version').pluck();
  const stampReader = (readVersion: () => number) => () => `${readVersion()}:${statements.writes()}`;
  const db: Db = {
    kysely,
    dialect: 'sqlite',
    changeStamp: stampReader(() => dataVersion.get() as number),
    forRequest() {
      let version: number | undefined;
      return { ...db, changeStamp: stampReader(() => (version ??= dataVersion.get() as number)) };
    },
    close: () => kysely.destroy(),
  };
  return db;
}

const statementCacheSize = 500;

interface CachedStatement {
  statement: SqliteDatabase.Statement;
  reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SqliteDatabase.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * Kysely prepares every statement anew, which costs more than running it: statements are kept by
 * their SQL text (one still being iterated by a streamed query is never handed out twice). Every
 * statement that writes is counted, for the change stamp.
 */
function withStatementCache(database: SqliteDatabase.Database) {
  const cache = new Map<string, CachedStatement>();
  let writes = 0;
  // A writing statement may run through all() too (INSERT … RETURNING), so each path counts it.
  const wrap = (statement: SqliteDatabase.Statement): CachedStatement => {
    const counted = <T>(run: () => T): T => {
      if (!statement.readonly) writes += 1;
      return run();
    };
    return {
      statement,
      reader: statement.reader,
      all: (parameters) => counted(() => statement.all(...parameters)),
      run: (parameters) => counted(() => statement.run(...parameters)),
      iterate: (parameters) => counted(() => statement.iterate(...parameters)),
    };
  };
  return {
    writes: () => writes,
    close: () => database.close(),
    prepare(text: string): CachedStatement {
      const cached = cache.get(text);
      if (cached && !cached.statement.busy) return cached;
      const wrapped = wrap(database.prepare(text));
      if (cache.size >= statementCacheSize) cache.delete(cache.keys().next().value!);
      cache.set(text, wrapped);
      return wrapped;
    },
  };
}

// COUNT(*) and other int8 values arrive from pg as strings; every count Folio makes fits a JS number.
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function openPostgres(url: string, poolSize: number): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const db: Db = { kysely, dialect: 'postgres', forRequest: () => db, close: () => kysely.destroy() };
  return db;
}

function describe(config: DatabaseConfig): string {
  if (config.kind === 'sqlite') return `SQLite file ${config.path}`;
  const url = new URL(config.url);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
