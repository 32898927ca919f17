import type { DatabaseConfig } from '../config.ts';
import { databaseLocation, DatabaseUnavailableError } from './connection.ts';

type SystemError = Error & { code?: unknown };

/**
 * The database answered, but refused: a PostgreSQL user, password or database that does not exist
 * (SQLSTATE class 28, and 3D000), or a file that is not an SQLite database. "Cannot reach" would send
 * the person looking at the network; these name what to fix in DATABASE_URL instead.
 */
export function databaseRefusal(error: unknown, database: DatabaseConfig): string | undefined {
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
