/**
 * Which engine errors mean "the database is not there right now" rather than "this statement is
 * wrong". The first kind is worth retrying (the adapters answer it 503 with Retry-After); the second is
 * a client's mistake or a bug. What each engine and driver calls the first kind is known here only
 * (decisions/0034).
 */

/** PostgreSQL SQLSTATEs of a server that is going away, starting up, or full. */
const unavailableStates = new Set([
  '57P01', // admin_shutdown: the server is stopping (or pg_terminate_backend)
  '57P02', // crash_shutdown: another backend crashed and the server is resetting
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '53300', // too_many_connections: no room now, maybe in a moment
]);

/** Node's socket errors of a server that is not listening, went away, or cannot be reached. */
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'EAI_AGAIN']);

/**
 * node-postgres reports a lost connection with plain Errors: the socket closed under a query, the
 * client already lost its socket, or the pool waited `connectionTimeoutMillis` for a connection.
 */
const lostConnectionMessages = [
  /^Connection terminated unexpectedly$/,
  /^Connection terminated due to connection timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^timeout exceeded when trying to connect$/,
];

/**
 * True when `error` (or what caused it) says the database cannot be reached or cannot take the work
 * now: a refused or lost connection, a PostgreSQL server shutting down or starting, or SQLite's lock
 * still held by another process after the busy timeout. False for everything else, constraint
 * violations and syntax errors included.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (saysUnavailable(cause)) return true;
    // Node's connection to a name with several addresses (localhost: ::1 and 127.0.0.1) fails with one error per address.
    if (cause instanceof AggregateError && cause.errors.some((inner) => inner instanceof Error && saysUnavailable(inner))) return true;
  }
  return false;
}

function saysUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // PostgreSQL's class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code) || unavailableStates.has(code) || socketCodes.has(code)) return true;
    // better-sqlite3: another connection (the CLI, an import, a second server) held the write lock past
    // the busy timeout. SQLite's other failures (I/O, a full disk, a corrupt file) do not pass by themselves.
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
  }
  return lostConnectionMessages.some((message) => message.test(error.message));
}

/** What an operator needs of the cause in one log line: its code and message, no stack (it is not a bug). */
export function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message || (error instanceof AggregateError ? error.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner))).join('; ') : '');
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
