import type { Config } from '../config.ts';
import { databaseLocation, DatabaseUnavailableError } from '../db/connection.ts';

/**
 * A mistake in how Folio was started (a port taken, a host or a database user that does not exist),
 * told in one sentence that names the problem and its fix: the person at the console made it, so a
 * stack trace would only hide the sentence. The CLI prints it and exits 2, as for a bad variable.
 */
export class CliProblem extends Error {
  override name = 'CliProblem';
}

type SystemError = Error & { code?: unknown; syscall?: unknown; hostname?: unknown };

/** `error` as a CliProblem when it is one of the common start-up mistakes, else `error` itself. */
export function explainStartFailure(error: unknown, config: Config): unknown {
  const sentence = listenProblem(error, config) ?? databaseProblem(error, config);
  return sentence === undefined ? error : new CliProblem(sentence);
}

const hostFix = 'set HOST (or --host) to an address of this machine: 127.0.0.1 for this machine alone, 0.0.0.0 for every network interface';

/** Binding the server's socket (`listen`, after the database is migrated), or resolving HOST for it. */
function listenProblem(error: unknown, config: Config): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, hostname } = error as SystemError;
  if (syscall === 'getaddrinfo' && hostname === config.host) {
    return `HOST ${config.host} does not resolve to an address (${code}): ${hostFix}`;
  }
  if (syscall !== 'listen') return undefined;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${config.port} at ${config.host} is already in use (another Folio, or another program): stop that program, or start Folio on a free port with PORT (or --port), such as PORT=${config.port + 1}`;
    case 'EACCES':
      return `this process may not listen on port ${config.port} at ${config.host} (ports below 1024 need privileges): use a port from 1024 up with PORT (or --port), with a reverse proxy in front for 80 or 443`;
    case 'EADDRNOTAVAIL':
      return `HOST ${config.host} is not an address of this machine: ${hostFix}`;
    default:
      return undefined;
  }
}

/**
 * The database answered, but refused: a PostgreSQL user, password or database that does not exist
 * (SQLSTATE class 28, and 3D000), or a file that is not an SQLite database. "Cannot reach" would send
 * the person looking at the network; these name what to fix in DATABASE_URL instead.
 */
function databaseProblem(error: unknown, config: Config): string | undefined {
  const database = config.database;
  if (database.kind === 'sqlite') {
    const code = (error as SystemError).code;
    if (code !== 'SQLITE_NOTADB') return undefined;
    return `${database.path} is not an SQLite database: point DATABASE_URL (or --database-url) at Folio's database file, or at a file that does not exist yet to start a new one`;
  }
  if (!(error instanceof DatabaseUnavailableError) || !(error.cause instanceof Error)) return undefined;
  const refusal = error.cause as SystemError;
  const where = `PostgreSQL at ${databaseLocation(database)}`;
  const url = new URL(database.url);
  switch (refusal.code) {
    case '28000':
      return `${where} refused the user ${url.username ? `"${decodeURIComponent(url.username)}"` : 'of this process'} (${refusal.message}): fix the user in DATABASE_URL, or let that user in (CREATE ROLE … LOGIN, and an entry in pg_hba.conf)`;
    case '28P01':
      return `${where} refused the password of the user "${decodeURIComponent(url.username)}" (${refusal.message}): put that user's password in DATABASE_URL`;
    case '3D000':
      return `${where} has no database of that name (${refusal.message}): create it (createdb ${decodeURIComponent(url.pathname.slice(1))}) or fix the name in DATABASE_URL`;
    default:
      return undefined;
  }
}
