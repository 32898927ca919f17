/**
 * The PostgreSQL half of `folio backup` (docs/decisions/0060): Folio copies nothing there, since
 * `pg_dump` takes a consistent dump of a running database better than any copy Folio could make; it
 * prints the command for the configured database instead.
 */

/**
 * `pg_dump` in its custom format (compressed, restored selectively with `pg_restore`) into `file`,
 * for the database `url` names; `url` comes with its password already masked, and `quote` makes
 * each word safe for a shell.
 */
export function pgDumpCommand(url: string, file: string, quote: (word: string) => string): string {
  return ['pg_dump', '--format=custom', `--file=${quote(file)}`, `--dbname=${quote(url)}`].join(' ');
}
