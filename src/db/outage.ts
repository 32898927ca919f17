import type { DatabaseConnection, Driver } from 'kysely';
import { describeCause, isDatabaseUnavailable } from './availability.ts';

/** The two lines an outage writes: where it started, and that it ended. */
export interface OutageLog {
  error(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/**
 * One stretch of time in which the database did not answer: from the first failed statement to the
 * first success of one sent after it (AvailabilityWatch). Every failure in it carries the same Outage, so however many requests
 * fail, the first adapter that answers one of them writes the outage to the log and the rest do not.
 */
export class Outage {
  readonly since: number;
  failures = 0;
  #log: OutageLog | undefined;

  constructor(since: number) {
    this.since = since;
  }

  /** Writes the outage to `log` unless it has been written already; its end goes to the same log. */
  report(log: OutageLog, cause: unknown): void {
    if (this.#log !== undefined) return;
    this.#log = log;
    log.error({ reason: describeCause(cause) }, 'database unavailable: requests are answered 503 until it answers again');
  }

  end(now: number): void {
    this.#log?.info({ unavailableMs: now - this.since, failedStatements: this.failures }, 'database available again');
  }
}

/**
 * The database did not answer. Thrown for a failed statement during an outage (with that Outage), and
 * at start when the configured database cannot be reached (without one: nothing is served yet).
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  readonly outage: Outage | undefined;

  constructor(message: string, options: { cause?: unknown; outage?: Outage } = {}) {
    super(message, { cause: options.cause });
    this.outage = options.outage;
  }
}

/**
 * A database's availability as its statements tell it: one per open database, so per process.
 *
 * Statements are numbered as they start, because when the database goes away some that were already
 * answered still arrive after the first failure, and some sent on dead connections still fail after
 * the first success. Only a statement that started after the outage began can end it, and only one
 * that started after the last outage ended can begin another: the stragglers of one outage neither
 * split it in two nor log it twice.
 */
export class AvailabilityWatch {
  #started = 0;
  #outage: { outage: Outage; openedAt: number } | undefined;
  #last: { outage: Outage; endedAt: number } | undefined;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A statement (or a connection) is asked for: its number, for `answered` and `failed`. */
  started(): number {
    return (this.#started += 1);
  }

  /** What to throw for `error`: a sign of an unreachable database as DatabaseUnavailableError of its outage, anything else as it is. */
  failed(error: unknown, statement: number): unknown {
    if (error instanceof DatabaseUnavailableError || !isDatabaseUnavailable(error)) return error;
    const straggler = this.#outage === undefined && this.#last !== undefined && statement <= this.#last.endedAt;
    const outage = straggler ? this.#last!.outage : (this.#outage ??= { outage: new Outage(this.#now()), openedAt: this.#started }).outage;
    outage.failures += 1;
    return new DatabaseUnavailableError('The database is not answering', { cause: error, outage });
  }

  /** A statement succeeded: the outage is over if it started after the outage did. */
  answered(statement: number): void {
    const current = this.#outage;
    if (current === undefined || statement <= current.openedAt) return;
    this.#outage = undefined;
    this.#last = { outage: current.outage, endedAt: this.#started };
    current.outage.end(this.#now());
  }

  /** A statement run synchronously, outside the driver (SQLite's reads at once, connection.ts), watched as the driver's are. */
  run<T>(statement: () => T): T {
    const number = this.started();
    let result: T;
    try {
      result = statement();
    } catch (error) {
      throw this.failed(error, number);
    }
    this.answered(number);
    return result;
  }
}

/**
 * Makes every way Kysely reaches the engine through `driver` report to a watch of its own: taking a
 * connection (where a refused one shows), every statement (transaction control included, which the
 * driver sends through the connection) and streamed reads. Kysely asks its dialect for the driver
 * once per database it opens, so each open database has its one watch (which SQLite's reads at once
 * share, connection.ts). The driver and its connections are patched in place rather than wrapped,
 * because the driver hands its own connection objects back to itself (releaseConnection,
 * beginTransaction) and looks at their private state.
 */
export function watchDriver(driver: Driver, watch = new AvailabilityWatch()): Driver {
  const watched = new WeakSet<DatabaseConnection>();
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    const attempt = watch.started();
    let connection: DatabaseConnection;
    try {
      connection = await acquire();
    } catch (error) {
      throw watch.failed(error, attempt);
    }
    if (!watched.has(connection)) {
      watched.add(connection);
      watchConnection(connection, watch);
    }
    return connection;
  };
  return driver;
}

function watchConnection(connection: DatabaseConnection, watch: AvailabilityWatch): void {
  const execute = connection.executeQuery.bind(connection);
  const stream = connection.streamQuery.bind(connection);
  connection.executeQuery = ((...args: Parameters<typeof execute>) => {
    const statement = watch.started();
    return execute(...args).then(
      (result) => {
        watch.answered(statement);
        return result;
      },
      (error: unknown) => {
        throw watch.failed(error, statement);
      },
    );
  }) as typeof connection.executeQuery;
  connection.streamQuery = async function* (...args: Parameters<typeof stream>) {
    const statement = watch.started();
    try {
      for await (const chunk of stream(...args)) {
        watch.answered(statement);
        yield chunk;
      }
    } catch (error) {
      throw watch.failed(error, statement);
    }
  } as typeof connection.streamQuery;
}
