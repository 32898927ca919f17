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
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

const statementCacheSize = 500;

/**
 * Kysely prepares every statement anew, which costs more than running it. The SQL text is the key;
 * a statement still being iterated (a streamed query) is never handed out twice.
 */
function withStatementCache(database: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached && !cached.busy) return cached;
      const statement = database.prepare(text);
      if (cache.size >= statementCacheSize) cache.delete(cache.keys().next().value!);
      cache.set(text, statement);
      return statement;
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
  return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
}

function describe(config: DatabaseConfig): string {
  if (config.kind === 'sqlite') return `SQLite file ${config.path}`;
  const url = new URL(config.url);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
