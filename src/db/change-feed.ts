import type { DatabaseConnection, Driver } from 'kysely';
import pg from 'pg';
import { anyTable, writeTarget } from './write-target.ts';

/** The channel every Folio process on a database listens on; a payload is `schema.table`, or `schema.*`. */
export const changeChannel = 'folio_changes';
/** The statement-level trigger (migration 0020) that notifies the channel when its table changes. */
export const changeTrigger = 'folio_change_notify';

/** The application name of a process's listening connection, followed by its process id. */
export const listenerName = 'folio changes of process ';

const firstRetryMs = 250;
const lastRetryMs = 10_000;

interface ConnectionState {
  inTransaction: boolean;
  written: Set<string>;
}

/**
 * PostgreSQL's change stamp (read-cache.ts, decisions/0052). Each table a cache reads carries a
 * trigger that notifies `folio_changes` in the writing transaction, so at its commit; every process
 * keeps one connection listening there and counts the notifications per table. Its own writes are
 * counted as they commit, without waiting for their notification to come back.
 *
 * There is no stamp (so nothing is served from memory) for a table without the trigger, or while the
 * listening connection is down: a process that may have missed a notification drops what it holds,
 * since each new connection starts a new epoch.
 */
export class PostgresChangeFeed {
  readonly #url: string;
  readonly #versions = new Map<string, number>();
  /** Transactions not yet ended, per table they wrote: until they commit, their own reads must not come from memory. */
  readonly #unfinished = new Map<string, number>();
  #epoch = 0;
  /** The tables with the trigger, once listening; undefined while not. */
  #watched: Set<string> | undefined;
  #schema = '';
  #client: pg.Client | undefined;
  #retryMs = firstRetryMs;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;
  #barriers = 0;
  /** changesArrived's own notifications, by payload, until they come back. */
  readonly #awaited = new Map<string, () => void>();
  /** Settles once the first attempt to listen has (a database that refuses it still serves, from the database). */
  readonly ready: Promise<void>;

  constructor(url: string) {
    this.#url = url;
    this.ready = this.#listen();
  }

  /** The stamp of `tables` outside a transaction; undefined when one of them cannot be watched now. */
  stamp = (tables: readonly string[]): string | undefined => {
    if (!this.#watched) return undefined;
    let sum = this.#versions.get(anyTable) ?? 0;
    for (const table of tables) {
      if (!this.#watched.has(table)) return undefined;
      sum += this.#versions.get(table) ?? 0;
    }
    return `${this.#epoch}:${sum}`;
  };

  /** The stamp inside a transaction: none for a table an unfinished transaction wrote, whose change is not counted before it commits. */
  stampInTransaction = (tables: readonly string[]): string | undefined => {
    if ((this.#unfinished.get(anyTable) ?? 0) > 0) return undefined;
    for (const table of tables) if ((this.#unfinished.get(table) ?? 0) > 0) return undefined;
    return this.stamp(tables);
  };

  /** Counts the writes of this process's connections taken from `driver`, as they commit (patched in place, as outage.ts does). */
  trackWrites(driver: Driver): Driver {
    const tracked = new WeakSet<DatabaseConnection>();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (!tracked.has(connection)) {
        tracked.add(connection);
        this.#trackConnection(connection);
      }
      return connection;
    };
    return driver;
  }

  /**
   * Resolves once every change committed before the call has been counted: a notification of its own,
   * sent now, comes back after all of those (notifications arrive in commit order). Nothing to wait
   * for while not listening, since nothing is then served from memory.
   */
  async changesArrived(): Promise<void> {
    const client = this.#client;
    if (!client || !this.#watched) return;
    const payload = `${this.#schema}.barrier:${(this.#barriers += 1)}`;
    const arrived = new Promise<void>((resolve) => this.#awaited.set(payload, resolve));
    await client.query('select pg_notify($1, $2)', [changeChannel, payload]);
    await arrived;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    this.#watched = undefined;
    await client?.end().catch(() => undefined);
  }

  #trackConnection(connection: DatabaseConnection): void {
    const state: ConnectionState = { inTransaction: false, written: new Set() };
    const execute = connection.executeQuery.bind(connection);
    connection.executeQuery = (async (...args: Parameters<typeof execute>) => {
      const text = args[0].sql;
      if (/^\s*(begin|start\s+transaction)\b/i.test(text)) state.inTransaction = true;
      const ends = state.inTransaction && /^\s*(commit|rollback)\s*$/i.test(text);
      const target = writeTarget(text);
      if (target !== undefined && state.inTransaction && !state.written.has(target)) {
        state.written.add(target);
        this.#unfinished.set(target, (this.#unfinished.get(target) ?? 0) + 1);
      }
      try {
        return await execute(...args);
      } finally {
        // Counted once the statement is done (the commit, for a transaction), failed or not: a change
        // counted that did not happen only costs a read.
        if (ends) this.#endTransaction(state);
        else if (target !== undefined && !state.inTransaction) this.#count(target);
      }
    }) as typeof connection.executeQuery;
  }

  #endTransaction(state: ConnectionState): void {
    for (const table of state.written) {
      this.#unfinished.set(table, this.#unfinished.get(table)! - 1);
      this.#count(table);
    }
    state.written.clear();
    state.inTransaction = false;
  }

  #count(table: string): void {
    this.#versions.set(table, (this.#versions.get(table) ?? 0) + 1);
  }

  async #listen(): Promise<void> {
    // Named after the process, so an operator (or a test) can tell its listening connection in pg_stat_activity.
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: 10_000, application_name: `${listenerName}${process.pid}` });
    this.#client = client;
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    client.on('notification', (message) => this.#notified(client, message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`listen ${changeChannel}`);
      await this.#readWatched(client);
      this.#retryMs = firstRetryMs;
    } catch {
      this.#lost(client);
    }
  }

  /** Which tables notify (a migration may add some: it then notifies `schema.*`). Listening comes first, so no change falls between. */
  async #readWatched(client: pg.Client): Promise<void> {
    const { rows } = await client.query<{ schema: string; tables: string[] }>(
      `select current_schema() as schema, coalesce((select array_agg(c.relname::text) from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgname = $1 and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())), '{}') as tables`,
      [changeTrigger],
    );
    if (client !== this.#client) return;
    this.#schema = rows[0]!.schema;
    this.#epoch += 1;
    this.#watched = new Set(rows[0]!.tables);
  }

  #notified(client: pg.Client, payload: string): void {
    const barrier = this.#awaited.get(payload);
    if (barrier) {
      this.#awaited.delete(payload);
      return barrier();
    }
    const dot = payload.lastIndexOf('.');
    if (client !== this.#client || payload.slice(0, dot) !== this.#schema) return;
    const table = payload.slice(dot + 1);
    if (table !== anyTable) return this.#count(table);
    this.#watched = undefined;
    this.#readWatched(client).catch(() => this.#lost(client));
  }

  #lost(client: pg.Client): void {
    if (client !== this.#client) return;
    this.#client = undefined;
    this.#watched = undefined;
    // Nothing is served from memory until listening again: whoever waits has nothing left to wait for.
    for (const resolve of this.#awaited.values()) resolve();
    this.#awaited.clear();
    client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#retry = setTimeout(() => void this.#listen(), this.#retryMs);
    this.#retry.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, lastRetryMs);
  }
}

