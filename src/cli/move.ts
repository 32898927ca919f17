import path from 'node:path';
import type { Command } from 'commander';
import { formatSize } from '../backup/files.ts';
import type { ConfigFlags, DatabaseConfig, StorageConfig } from '../config.ts';
import { databaseLocation as parseDatabaseUrl } from '../config/values.ts';
import { validationError } from '../core/errors.ts';
import { databaseLocation } from '../db/connection.ts';
import { comparisonLines, type TableComparison } from '../move/compare.ts';
import type { MediaCopy } from '../move/media.ts';
import { catchUpSite, moveSite, type MoveSource, type MoveTarget } from '../move/move.ts';
import { withCliContext, withDatabase } from './context.ts';
import { CliProblem } from './problems.ts';
import { databaseFlags, declareDatabaseFlag } from './setting-flags.ts';
import { yieldToServer } from './priority.ts';

interface MoveFlags {
  to: string;
  media?: string;
  mediaDir?: string;
  catchUp?: boolean;
  databaseUrl?: string;
}

/**
 * `folio move --to URL [--media s3://BUCKET | --media-dir DIR] [--catch-up]` (docs/decisions/0062):
 * the site the configured database and media hold, copied into a new database (and storage) while
 * the server keeps serving; then catch-ups until the switch, each ending with the comparison.
 */
export function registerMoveCommand(program: Command): void {
  declareDatabaseFlag(
    program
      .command('move')
      .description('copy this site into a new database (PostgreSQL, or a SQLite file) and media storage while the server runs; then --catch-up before the switch')
      .requiredOption('--to <url>', 'the new database: postgres://… (or file:… for SQLite), empty but for `folio migrate`')
      .option('--media <storage>', 'copy the media files to this S3 bucket, s3://BUCKET (endpoint, region and credentials from the usual S3_* settings)')
      .option('--media-dir <dir>', 'copy the media files to this local folder instead')
      .option('--catch-up', 'bring a target an earlier move filled up to date: rows added, changed and deleted since, new media files'),
  ).action(async (options: MoveFlags) => {
    yieldToServer();
    const targetFlags = targetFlagsOf(options);
    const sourceFlags = databaseFlags(options);
    await withDatabase(sourceFlags, async (sourceConfig, db, storage) => {
      if (sameDatabase(sourceConfig.database, targetFlags.database)) throw validationError([{ path: 'to', message: '--to names the database the site is in already: give a new one' }]);
      const source: MoveSource = { db, storage, sqlitePath: sqlitePathOf(sourceConfig.database), name: databaseLocation(sourceConfig.database) };
      await withCliContext({ ...sourceFlags, ...targetFlags.flags }, async (ctx, targetConfig) => {
        const sameStorage = sameMediaStorage(sourceConfig.media.storage, targetConfig.media.storage);
        const target: MoveTarget = { ctx, sqlitePath: sqlitePathOf(targetConfig.database), sameStorage };
        const started = performance.now();
        const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
        const to = databaseLocation(targetConfig.database);
        if (options.catchUp === true) {
          const result = await catchUpSite(source, target);
          console.log(`caught up ${source.name} → ${to}: ${result.added} rows added, ${result.changed} changed, ${result.deleted} deleted${mediaText(result.media)} in ${seconds()} s`);
          const differing = printComparison(result.comparison);
          if (differing > 0) {
            throw new CliProblem(`${differing} tables still differ after the catch-up: the old server is still writing; stop it and run the catch-up again`);
          }
          console.log(`\nThe new site holds the same as the old one. Start Folio on it:\n  ${serveCommand(options)}`);
          return;
        }
        const result = await moveSite(source, target);
        console.log(`moved ${result.rows} rows from ${source.name} to ${to}${mediaText(result.media)} in ${seconds()} s`);
        if (sameStorage) console.log(`media: not copied, the new site uses the same storage as the old one (${storageText(sourceConfig.media.storage)})`);
        if (result.media !== undefined && result.media.missing.length > 0) console.log(`media named by rows that the old storage did not have (not copied): ${result.media.missing.join(', ')}`);
        const differing = printComparison(result.comparison);
        if (differing > 0) console.log(`${differing} tables differ: what the running server wrote since the copy began. The catch-up brings it over.`);
        console.log(
          [
            '',
            'To switch to the new site:',
            '  1. While the old server keeps serving, bring the copy up to date (as often as you like):',
            `       ${moveCommand(options)} --catch-up`,
            '  2. Stop the old server, then run the same catch-up a last time: it ends with 0 differences.',
            `  3. Start Folio on the new site:`,
            `       ${serveCommand(options)}`,
          ].join('\n'),
        );
      });
    });
  });
}

/** The settings the target is opened with: its database, and its media storage when --media or --media-dir names one. */
function targetFlagsOf(options: MoveFlags): { flags: ConfigFlags; database: DatabaseConfig } {
  const parsed = parseDatabaseUrl.safeParse(options.to);
  if (!parsed.success) throw validationError([{ path: 'to', message: `--to ${options.to} ${parsed.error.issues[0]!.message}` }]);
  const location = parsed.data;
  const database: DatabaseConfig = location.kind === 'postgres' ? { ...location, poolSize: 4 } : location;
  const flags: ConfigFlags = { databaseUrl: options.to };
  if (options.media !== undefined && options.mediaDir !== undefined) throw validationError([{ path: 'media', message: 'give --media (S3) or --media-dir (a folder), not both' }]);
  if (options.media !== undefined) {
    const bucket = /^s3:\/\/([^/]+)\/?$/.exec(options.media)?.[1];
    if (bucket === undefined) throw validationError([{ path: 'media', message: `--media ${options.media} is not s3://BUCKET` }]);
    Object.assign(flags, { mediaStorage: 's3', s3Bucket: bucket });
  }
  if (options.mediaDir !== undefined) Object.assign(flags, { mediaStorage: 'local', mediaDir: path.resolve(options.mediaDir) });
  return { flags, database };
}

function sqlitePathOf(database: DatabaseConfig): string | undefined {
  return database.kind === 'sqlite' ? database.path : undefined;
}

function sameDatabase(a: DatabaseConfig, b: DatabaseConfig): boolean {
  if (a.kind === 'sqlite' && b.kind === 'sqlite') return path.resolve(a.path) === path.resolve(b.path);
  return a.kind === 'postgres' && b.kind === 'postgres' && a.url === b.url;
}

function sameMediaStorage(a: StorageConfig, b: StorageConfig): boolean {
  if (a.kind === 'local' && b.kind === 'local') return path.resolve(a.dir) === path.resolve(b.dir);
  return a.kind === 's3' && b.kind === 's3' && a.bucket === b.bucket && a.endpoint === b.endpoint;
}

function storageText(storage: StorageConfig): string {
  return storage.kind === 'local' ? `the folder ${storage.dir}` : `the S3 bucket ${storage.bucket}`;
}

function mediaText(media: MediaCopy | undefined): string {
  return media === undefined ? '' : `, ${media.files} media files (${formatSize(media.bytes)})`;
}

/** Prints the comparison table; returns how many tables differ. */
function printComparison(comparison: readonly TableComparison[]): number {
  console.log('');
  for (const line of comparisonLines(comparison)) console.log(line);
  const differing = comparison.filter((row) => !row.same).length;
  console.log(`${differing} differences in ${comparison.length} tables`);
  return differing;
}

const quoted = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

function moveCommand(options: MoveFlags): string {
  const parts = ['folio move', ...(options.databaseUrl === undefined ? [] : ['--database-url', quoted(options.databaseUrl)]), '--to', quoted(options.to)];
  if (options.media !== undefined) parts.push('--media', quoted(options.media));
  if (options.mediaDir !== undefined) parts.push('--media-dir', quoted(path.resolve(options.mediaDir)));
  return parts.join(' ');
}

/** `folio serve` on the new database, with the media settings the target was given (the S3 endpoint and credentials stay as they are set). */
function serveCommand(options: MoveFlags): string {
  const variables = [`DATABASE_URL=${quoted(options.to)}`];
  if (options.media !== undefined) variables.push('MEDIA_STORAGE=s3', `S3_BUCKET=${quoted(options.media.replace(/^s3:\/\//, '').replace(/\/$/, ''))}`);
  if (options.mediaDir !== undefined) variables.push('MEDIA_STORAGE=local', `MEDIA_DIR=${quoted(path.resolve(options.mediaDir))}`);
  return `${variables.join(' ')} folio serve`;
}

