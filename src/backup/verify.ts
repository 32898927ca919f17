import fs from 'node:fs';
import path from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import { validationError } from '../core/errors.ts';
import { readSqliteCopy, type SqliteCopyContents } from '../db/sqlite-backup.ts';
import { formatSize, hashFile, pathUnder } from './files.ts';
import { Manifest, databaseFile, manifestFile, mediaFolder } from './manifest.ts';

export interface Verification {
  /** What was looked at and found, a line each, for a person. */
  found: string[];
  /** Each thing wrong, a sentence each; none when the backup is sound. */
  problems: string[];
}

/**
 * `folio backup --verify PATH` (docs/decisions/0060): PATH is a backup's directory or its database
 * file. The copy is opened read-only; nothing in the backup is changed. `knownMigrations` are this
 * Folio's: a copy whose schema has one it does not know comes from a newer Folio.
 */
export async function verifyBackup(target: string, knownMigrations: readonly string[]): Promise<Verification> {
  const stats = await fs.promises.stat(target).catch(() => undefined);
  if (stats === undefined) throw validationError([{ path: 'verify', message: `Nothing at ${target}: give a backup's directory or its ${databaseFile}` }]);
  const dir = stats.isDirectory() ? target : path.dirname(target);
  const dbFile = stats.isDirectory() ? path.join(target, databaseFile) : target;
  const found: string[] = [];
  const problems: string[] = [];

  const manifest = await readManifest(dir, problems, stats.isDirectory());
  if (manifest) found.push(`backup taken ${manifest.createdAt} by Folio ${manifest.folioVersion}`);
  else if (!stats.isDirectory() && problems.length === 0) found.push(`no ${manifestFile} beside ${path.basename(dbFile)}: the database alone is checked`);

  const contents = await checkDatabase(dbFile, manifest, found, problems);
  if (contents) {
    checkSchema(contents, manifest, knownMigrations, problems);
    checkCounts(contents, manifest, found, problems);
  }
  if (manifest) await checkMedia(path.join(dir, mediaFolder), manifest, found, problems);
  return { found, problems };
}

async function readManifest(dir: string, problems: string[], required: boolean): Promise<Manifest | undefined> {
  const file = path.join(dir, manifestFile);
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch {
    if (required) problems.push(`${manifestFile} is missing from ${dir}: this is not a Folio backup, or not a whole one`);
    return undefined;
  }
  try {
    const parsed = Manifest.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: told below as for a manifest of the wrong shape.
  }
  problems.push(`${manifestFile} is not a Folio backup manifest (damaged, or from another program)`);
  return undefined;
}

async function checkDatabase(dbFile: string, manifest: Manifest | undefined, found: string[], problems: string[]): Promise<SqliteCopyContents | undefined> {
  const hashed = await hashFile(dbFile).catch(() => undefined);
  if (hashed === undefined) {
    problems.push(`the database file ${dbFile} is missing`);
    return undefined;
  }
  if (manifest && hashed.size !== manifest.database.size) problems.push(`the database file is ${hashed.size} bytes, the manifest says ${manifest.database.size}: it was cut short or changed`);
  else if (manifest && hashed.sha256 !== manifest.database.sha256) problems.push("the database file's SHA-256 is not the manifest's: its bytes were changed");
  let contents: SqliteCopyContents;
  try {
    contents = readSqliteCopy(dbFile);
  } catch (error) {
    problems.push(`the database file cannot be read as SQLite: ${(error as Error).message}`);
    return undefined;
  }
  if (contents.integrityProblems.length > 0) problems.push(`SQLite's integrity check fails: ${contents.integrityProblems.slice(0, 5).join('; ')}`);
  found.push(`database ${path.basename(dbFile)}: ${formatSize(hashed.size)}, integrity ${contents.integrityProblems.length === 0 ? 'ok' : 'damaged'}, schema at ${contents.migrations.at(-1) ?? 'no migration'}`);
  return contents;
}

function checkSchema(contents: SqliteCopyContents, manifest: Manifest | undefined, knownMigrations: readonly string[], problems: string[]): void {
  const level = contents.migrations.at(-1);
  if (level === undefined) {
    problems.push('the database has no Folio migrations: it is not a Folio database');
    return;
  }
  const known = new Set(knownMigrations);
  const unknown = contents.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const maker = manifest ? `Folio ${manifest.folioVersion}` : 'a newer Folio';
    problems.push(
      `the schema is at migration ${level}, which this Folio (${packageJson.version}, up to ${knownMigrations.at(-1)}) does not know: the backup comes from ${maker}; check and restore it with that version or a later one`,
    );
  }
  if (manifest && manifest.database.migration !== level) problems.push(`the schema is at migration ${level}, the manifest says ${manifest.database.migration}`);
}

function checkCounts(contents: SqliteCopyContents, manifest: Manifest | undefined, found: string[], problems: string[]): void {
  found.push(`rows: ${Object.entries(contents.counts).map(([table, count]) => `${table} ${count}`).join(', ')}`);
  if (!manifest) return;
  for (const [table, expected] of Object.entries(manifest.counts)) {
    const actual = contents.counts[table];
    if (actual !== expected) problems.push(`${table}: ${actual ?? 'no table'} rows, the manifest says ${expected}`);
  }
}

async function checkMedia(folder: string, manifest: Manifest, found: string[], problems: string[]): Promise<void> {
  if (manifest.media.storage === 's3') {
    found.push("media: in the S3 bucket, not in the backup (the bucket's own backup keeps them)");
    return;
  }
  let sound = 0;
  let bytes = 0;
  for (const file of manifest.media.files) {
    const location = pathUnder(folder, file.key);
    const actual = location === undefined ? undefined : await hashFile(location).catch(() => undefined);
    if (actual === undefined) problems.push(`media file ${file.key} is missing`);
    else if (actual.size !== file.size) problems.push(`media file ${file.key} is ${actual.size} bytes, the manifest says ${file.size}`);
    else if (actual.sha256 !== file.sha256) problems.push(`media file ${file.key}'s SHA-256 is not the manifest's: its bytes were changed`);
    else {
      sound += 1;
      bytes += actual.size;
    }
  }
  const gone = manifest.media.missing.length;
  found.push(
    `media: ${sound} of ${manifest.media.files.length} files sound, ${formatSize(bytes)}${gone > 0 ? ` (${gone} already gone from storage when the backup was taken: ${manifest.media.missing.join(', ')})` : ''}`,
  );
}
