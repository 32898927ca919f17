import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type DatabaseConnection, type DatabaseIntrospector, type Driver, type TableMetadata } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { PostgresChangeFeed } from './change-feed.ts';
import { groupCommit, type WriteTransaction } from './group-commit.ts';
import { AvailabilityWatch, DatabaseUnavailableError, watchDriver } from './outage.ts';
import type { Database } from './types.ts';
import { anyTable, writeTarget } from './write-target.ts';

export type Dialect = 'sqlite' | 'postgres';

/** A database handle: the Kysely instance plus the one fact about the engine that `db/` helpers need. */
export interface Db {
  /** The same object for every view of one database (per request, in a transaction): what caches key on. */
  identity: object;
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * A value that changes whenever a write, by this process or any other, may have changed what a read
   * of `tables` returns; undefined where it cannot be told now (then nothing is cached). SQLite reads
   * its data version; PostgreSQL counts the notifications of change-feed.ts. See read-cache.ts.
   */
  changeStamp?: (tables: readonly string[]) => string | undefined;
  /**
   * The stamp as it is right now, never the value a request remembered: what a transaction uses, since
   * other processes may have committed between the request's first read and its BEGIN. On PostgreSQL,
   * none for a table a transaction not yet committed has written: its reads see its own writes.
   */
  currentChangeStamp?: (tables: readonly string[]) => string | undefined;
  /**
   * Resolves once every change other processes committed before the call counts in the stamp: at once
   * on SQLite, which reads its stamp from the file; on PostgreSQL when their notifications have come.
   */
  changesArrived?: () => Promise<void>;
  /**
   * The same database as one request sees it: other processes' changes are looked for once, at the
   * request's first cached read (they take effect from the next request); its own writes at once.
   */
  forRequest(): Db;
  /**
   * SQLite: runs a write transaction in the group of those that run in the same turn, which commit
   * together (group-commit.ts); undefined where each transaction commits on its own.
   */
  writeTransaction?: WriteTransaction;
  /**
   * SQLite: the rows of a statement that only reads, run at once when nothing holds or waits for the
   * connection; undefined when something does (a transaction, another query queued), or when the
   * statement writes, and then the query goes through Kysely as any other. See openSqlite.
   */
  readAtOnce?: (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;
  close(): Promise<void>;
}

export { DatabaseUnavailableError };

export interface OpenOptions {
  /** Called with the SQL of every statement sent to the engine (tests count them: no N+1). */
  onStatement?: (sql: string) => void;
}

/** Opens the configured database and checks that it answers, so a bad DATABASE_URL fails at start. */
export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Db> {
  const { db, ready } = config.kind === 'sqlite' ? { db: openSqlite(config.path, options), ready: undefined } : openPostgres(config.url, config.poolSize, options);
  try {
    await sql`select 1`.execute(db.kysely);
    await ready;
  } catch (error) {
    await db.close().catch(() => undefined);
    // The engine's own reason (connection refused, no such database), not the watch's wrapper of it (outage.ts).
    const reason = error instanceof DatabaseUnavailableError ? error.cause : error;
    throw new DatabaseUnavailableError(`Cannot reach the database (${describe(config)}): ${(reason as Error).message}`, { cause: reason });
  }
  return db;
}

function kyselyLog(options: OpenOptions) {
  const onStatement = options.onStatement;
  return onStatement ? { log: (event: { level: string; query: { sql: string } }) => onStatement(event.query.sql) } : {};
}

function openSqlite(filePath: string, options: OpenOptions): Db {
  if (filePath !== ':memory:') fs.mkdirSync(path.dirname(filePath), { recursive: true });
  const database = new SqliteDatabase(filePath);
  // WAL lets the CLI and readers work while the server writes; the busy timeout makes a second
  // process wait for the write lock instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // A WAL that grew while a long reader held it (an export's snapshot, decisions/0061) is cut back to
  // 64 MiB at the next checkpoint instead of keeping its peak size on disk for good.
  database.pragma('journal_size_limit = 67108864');
  // Sorts and temporary indexes stay in memory instead of temporary files.
  database.pragma('temp_store = MEMORY');
  // ANALYZE (and PRAGMA optimize) sample this many rows per index instead of reading whole tables.
  database.pragma('analysis_limit = 400');
  const statements = withStatementCache(database);
  const watch = new AvailabilityWatch();
  const use = { claims: 0 };
  const kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: statements }, watch, use), ...kyselyLog(options) });
  // data_version moves when another connection (another process, the CLI) commits; this connection's
  // own writes are counted as they run.
  const versionStatement = database.prepare('pragma data_version').pluck();
  const dataVersion = {
    get: () => {
      options.onStatement?.('pragma data_version');
      return versionStatement.get() as number;
    },
  };
  const stampReader = (readVersion: () => number) => (tables: readonly string[]) => `${readVersion()}:${statements.writesTo(tables)}`;
  const writes = groupCommit(kysely, { inTransaction: () => database.inTransaction, lost: () => statements.countWrite(anyTable) });
  const db: Db = {
    identity: {},
    kysely,
    dialect: 'sqlite',
    changeStamp: stampReader(() => dataVersion.get()),
    currentChangeStamp: stampReader(() => dataVersion.get()),
    forRequest() {
      let version: number | undefined;
      return { ...db, changeStamp: stampReader(() => (version ??= dataVersion.get())) };
    },
    writeTransaction: writes.run,
    // better-sqlite3 answers synchronously, so Kysely's way to the one connection (its mutex, the
    // connection provider, the executor and their promises) is most of a small read's cost. While no
    // one holds or waits for the connection, taking it, reading and giving it back would leave it as
    // it was, with nothing able to run in between: so a read runs at once. A read while a group's
    // transaction is open between its writes sees what it would see through Kysely (decisions/0032).
    readAtOnce(text, parameters) {
      if (use.claims > 0) return undefined;
      const statement = statements.prepare(text);
      if (!statement.statement.readonly) return undefined;
      options.onStatement?.(text);
      return watch.run(() => statement.all(parameters));
    },
    close: async () => {
      await writes.flush();
      await kysely.destroy();
    },
  };
  return db;
}

/**
 * Folio's transactions all write. A deferred BEGIN would read under a snapshot and then fail with
 * SQLITE_BUSY_SNAPSHOT when another process wrote in between; BEGIN IMMEDIATE takes the write lock
 * first, so a second writer waits (busy timeout) and then reads fresh data.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #watch: AvailabilityWatch;
  readonly #use: { claims: number };

  /** `use.claims` counts who holds or waits for the connection (Db.readAtOnce runs only at none). */
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], watch: AvailabilityWatch, use: { claims: number }) {
    super(config);
    this.#watch = watch;
    this.#use = use;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    const use = this.#use;
    const acquire = driver.acquireConnection.bind(driver);
    const release = driver.releaseConnection.bind(driver);
    driver.acquireConnection = async () => {
      use.claims += 1;
      try {
        return await acquire();
      } catch (error) {
        use.claims -= 1;
        throw error;
      }
    };
    driver.releaseConnection = async (connection) => {
      use.claims -= 1;
      await release(connection);
    };
    // A write lock held by another process past the busy timeout is an outage to the requests (outage.ts).
    return watchDriver(driver, this.#watch);
  }
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
 * statement that writes is counted under the table it writes, for the change stamp: a cache of
 * settings need not be dropped because an entry was saved. Writes whose table cannot be told (DDL)
 * count for every table.
 */
function withStatementCache(database: SqliteDatabase.Database) {
  const cache = new Map<string, CachedStatement>();
  const writes = new Map<string, number>();
  const countWrite = (table: string) => writes.set(table, (writes.get(table) ?? 0) + 1);
  const wrap = (statement: SqliteDatabase.Statement, target: string | undefined): CachedStatement => {
    // A writing statement may run through all() too (INSERT … RETURNING), so each path counts it.
    const counted = <T>(run: () => T): T => {
      if (target !== undefined) countWrite(target);
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
    countWrite,
    writesTo: (tables: readonly string[]) => tables.reduce((sum, table) => sum + (writes.get(table) ?? 0), writes.get(anyTable) ?? 0),
    close: () => database.close(),
    prepare(text: string): CachedStatement {
      const cached = cache.get(text);
      if (cached && !cached.statement.busy) {
        // Least recently used goes first: a run of one-off statements (an import's IN lists of every
        // length) must not push out the ones every request uses.
        cache.delete(text);
        cache.set(text, cached);
        return cached;
      }
      const statement = database.prepare(text);
      const wrapped = wrap(statement, statement.readonly ? undefined : writeTarget(text));
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

function openPostgres(url: string, poolSize: number, options: OpenOptions): { db: Db; ready: Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes, connectionTimeoutMillis: 10_000 });
  // A client that loses its connection emits 'error', and an 'error' nobody listens to ends the
  // process. The pool listens only while a client is idle (and then drops it); while one is checked
  // out (a query, a transaction) nobody does. Its query fails with the same error, which is where it
  // is reported (outage.ts), and the pool drops the client when it is released: these only listen.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const changes = new PostgresChangeFeed(url);
  const dialect = new CurrentSchemaPostgresDialect({ pool }, changes);
  const kysely = new Kysely<Database>({ dialect, ...kyselyLog(options) });
  const db: Db = {
    identity: {},
    kysely,
    dialect: 'postgres',
    changeStamp: changes.stamp,
    currentChangeStamp: changes.stampInTransaction,
    changesArrived: () => changes.changesArrived(),
    // The stamp lives in memory, kept current by notifications: nothing to read once per request.
    forRequest: () => db,
    close: async () => {
      await changes.close();
      await kysely.destroy();
    },
  };
  return { db, ready: changes.ready };
}

/**
 * Kysely's migrator asks the introspector whether its bookkeeping tables exist. The stock PostgreSQL
 * introspector reads every column of every table of every schema and calls functions on their OIDs,
 * so a table dropped meanwhile by another process sharing the database (another deployment in its
 * own schema; the test suites, each in one) fails the migration with "relation does not exist".
 * Folio's tables live in the current schema, and the migrator needs only their names: this lists
 * those, from the catalogue alone.
 */
class CurrentSchemaPostgresDialect extends PostgresDialect {
  readonly #changes: PostgresChangeFeed;

  constructor(config: ConstructorParameters<typeof PostgresDialect>[0], changes: PostgresChangeFeed) {
    super(config);
    this.#changes = changes;
  }

  /** A refused or lost connection, or a server going down, is an outage to the requests (outage.ts); writes move the change stamp. */
  override createDriver(): Driver {
    return this.#changes.trackWrites(watchDriver(super.createDriver()));
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    const stock = super.createIntrospector(db);
    return {
      getSchemas: () => stock.getSchemas(),
      async getTables(): Promise<TableMetadata[]> {
        const { rows } = await sql<{ name: string; schema: string }>`select tablename as name, schemaname as schema from pg_catalog.pg_tables where schemaname = current_schema()`.execute(db);
        return rows.map((row) => ({ name: row.name, schema: row.schema, isView: false, isForeign: false, columns: [] }));
      },
    };
  }
}

/** Where the database is, for people: the SQLite file, or the PostgreSQL server and database, never credentials. */
export function databaseLocation(config: DatabaseConfig): string {
  if (config.kind === 'sqlite') return config.path;
  const url = new URL(config.url);
  return `${url.hostname}:${url.port || 5432}${url.pathname}`;
}

function describe(config: DatabaseConfig): string {
  return `${config.kind === 'sqlite' ? 'SQLite file' : 'PostgreSQL at'} ${databaseLocation(config)}`;
}
