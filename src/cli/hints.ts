import path from 'node:path';
import type { DatabaseConfig, StorageConfig } from '../config.ts';

/**
 * The command lines Folio prints for a person to type next (the first admin, resuming an import). They
 * name the database whenever it is not the default one, or a second terminal without this process's
 * DATABASE_URL would work on ./data/folio.db instead; a password is never printed (docs/decisions/0037).
 */

/** What stands in for a database password in a printed command: the person types theirs there. */
export const passwordPlaceholder = '<password>';

/**
 * `npx folio <args>`, preceded by `DATABASE_URL=…` unless the database is the default SQLite file, and
 * by `MEDIA_DIR=…` when the command reads media (an import keeps its copy of the file there) and the
 * folder is not the default one.
 */
export function folioCommand(database: DatabaseConfig, args: string, media?: StorageConfig): string {
  const variables: string[] = [];
  const databaseUrl = databaseVariable(database);
  if (databaseUrl !== undefined) variables.push(`DATABASE_URL=${shellWord(databaseUrl)}`);
  if (media?.kind === 'local' && media.dir !== path.resolve('data/media')) variables.push(`MEDIA_DIR=${shellWord(media.dir)}`);
  return [...variables, `npx folio ${args}`].join(' ');
}

/** The DATABASE_URL that names this database from any directory, or undefined for the default. */
function databaseVariable(database: DatabaseConfig): string | undefined {
  if (database.kind === 'postgres') return withoutPassword(database.url);
  // The default file is relative to the directory the server started in, where the README's second terminal is too.
  return database.path === path.resolve('data/folio.db') ? undefined : database.path;
}

/** `url` with its password (in the user part, or a `password` parameter) replaced by the placeholder. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  // URL's setters would percent-encode the placeholder's brackets: mark the places, then put it in.
  const mark = 'folio-password-placeholder';
  if (parsed.password !== '') parsed.password = mark;
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', mark);
  return parsed.toString().replaceAll(mark, passwordPlaceholder);
}

/** A word the shell takes as it is: quoted when it holds anything a shell would read otherwise. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
