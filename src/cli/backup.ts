import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { createSqliteBackup } from '../backup/create.ts';
import { formatSize } from '../backup/files.ts';
import { backupName } from '../backup/names.ts';
import { defaultKeep, pruneBackups } from '../backup/retention.ts';
import { verifyBackup } from '../backup/verify.ts';
import { loadConfig, type Config, type StorageConfig } from '../config.ts';
import { validationError } from '../core/errors.ts';
import { migrations } from '../db/migrate.ts';
import { pgDumpCommand } from '../db/postgres-dump.ts';
import { openStorage } from '../media/storage/open.ts';
import { passwordPlaceholder, shellWord, withoutPassword } from './hints.ts';
import { CliProblem } from './problems.ts';
import { databaseFlags, declareDatabaseFlag } from './setting-flags.ts';
import { yieldToServer } from './priority.ts';

interface BackupOptions {
  databaseUrl?: string;
  keep?: string;
  verify?: string;
}

/**
 * `folio backup DIR [--keep N]` and `folio backup --verify PATH` (docs/decisions/0060). It runs beside
 * the server, never in it: it reads the database as it is (no migration) and takes no lock a request waits on.
 */
export function registerBackupCommand(program: Command): void {
  declareDatabaseFlag(
    program
      .command('backup')
      .description('back up the database and media files while the server runs, or check a backup (--verify)')
      .argument('[dir]', 'the folder the backup goes into, as folio-backup-<UTC time>/ (made when missing)')
      .option('--keep <n>', `how many backups to keep in DIR: older ones are removed after a successful backup (default ${defaultKeep})`)
      .option('--verify <path>', "check a backup (its folder or its folio.db) instead of taking one: exit 0 when sound, 1 naming what is wrong")
      .addHelpText(
        'after',
        [
          '',
          'On SQLite: a consistent copy of the database (VACUUM INTO) taken while the server keeps writing, the media',
          'files the copy names (local storage), and manifest.json (version, schema level, sizes, SHA-256, row counts).',
          'With S3 media storage the bucket is not copied: the output says how to back it up.',
          'On PostgreSQL: nothing is copied; the output is the pg_dump command for the configured database.',
        ].join('\n'),
      ),
  ).action(async (dir: string | undefined, options: BackupOptions) => {
    if (options.verify !== undefined) {
      if (dir !== undefined) throw validationError([{ path: 'verify', message: 'Give either DIR (take a backup) or --verify PATH (check one), not both' }]);
      await verify(options.verify);
      return;
    }
    if (dir === undefined) throw validationError([{ path: 'dir', message: 'Give the folder to write the backup into: folio backup DIR (or check one with --verify PATH)' }]);
    yieldToServer();
    const keep = parseKeep(options.keep);
    const config = loadConfig(process.env, databaseFlags(options), process.stderr.isTTY === true);
    const target = path.resolve(dir);
    if (config.database.kind === 'postgres') printPostgresBackup(config.database.url, config.media.storage, target);
    else await backUpSqlite(config, config.database.path, target, keep);
  });
}

function parseKeep(value: string | undefined): number {
  if (value === undefined) return defaultKeep;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw validationError([{ path: 'keep', message: `"${value}" is not a number of backups for --keep: give a whole number from 1 up` }]);
  return Number(value);
}

async function backUpSqlite(config: Config, databasePath: string, dir: string, keep: number): Promise<void> {
  if (!fs.existsSync(databasePath)) throw new CliProblem(`there is no database at ${databasePath}: set DATABASE_URL (or --database-url) to the server's database`);
  const started = performance.now();
  const storage = await openStorage(config.media.storage);
  try {
    const { dir: written, manifest, size } = await createSqliteBackup({ databasePath, storage, dir, now: new Date() });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const counts = manifest.counts;
    console.log(`backup written to ${written} (${formatSize(size)}, ${seconds} s)`);
    console.log(`  database: ${formatSize(manifest.database.size)}, schema at ${manifest.database.migration}; ${counts.entries ?? 0} entries, ${counts.users ?? 0} users`);
    const media = config.media.storage;
    if (media.kind === 'local') {
      const mediaBytes = manifest.media.files.reduce((sum, file) => sum + file.size, 0);
      console.log(`  media: ${manifest.media.files.length} files, ${formatSize(mediaBytes)}`);
      if (manifest.media.missing.length > 0) {
        console.log(`  media already gone from storage when copied (deleted since the snapshot, or never arrived): ${manifest.media.missing.join(', ')}`);
      }
    } else {
      console.log(`  ${s3Note(media, dir)}`);
    }
    const removed = await pruneBackups(dir, keep);
    if (removed.length > 0) console.log(`removed ${removed.length} older backup${removed.length === 1 ? '' : 's'} (keeping ${keep}): ${removed.join(', ')}`);
  } finally {
    await storage.close();
  }
}

function printPostgresBackup(url: string, media: StorageConfig, dir: string): void {
  const file = path.join(dir, `${backupName(new Date())}.dump`);
  console.log('On PostgreSQL Folio copies nothing: pg_dump takes a consistent backup while the server runs. Run:');
  console.log(`  ${pgDumpCommand(withoutPassword(url), file, shellWord)}`);
  if (url !== withoutPassword(url)) {
    console.log(`  (replace ${passwordPlaceholder}, or take it out of the URL and set PGPASSWORD or use ~/.pgpass, so the password stays out of your shell history)`);
  }
  console.log(`  restore with: pg_restore --clean --if-exists --dbname=<database URL> ${shellWord(file)}`);
  if (media.kind === 's3') console.log(s3Note(media, dir));
  else console.log(`Media files (MEDIA_DIR) are not in the dump: copy them after it, with: rsync -a ${shellWord(`${media.dir}/`)} ${shellWord(path.join(dir, 'media'))}/`);
  console.log('--keep applies to Folio backups only: remove old dumps with your own rotation.');
}

/** The bucket is not copied: how to keep its files, for the configured bucket. */
function s3Note(media: Extract<StorageConfig, { kind: 's3' }>, dir: string): string {
  const endpoint = media.endpoint === undefined ? '' : ` --endpoint-url ${shellWord(media.endpoint)}`;
  return `media: the files in S3 bucket ${media.bucket} are not copied. Turn on the bucket's versioning, or copy them with: aws s3 sync s3://${media.bucket}/ ${shellWord(path.join(dir, 'media'))}/${endpoint}`;
}

async function verify(target: string): Promise<void> {
  const { found, problems } = await verifyBackup(path.resolve(target), Object.keys(migrations('sqlite')));
  for (const line of found) console.log(line);
  if (problems.length === 0) {
    console.log('the backup is sound');
    return;
  }
  console.error(`folio: the backup at ${target} is not sound:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exitCode = 1;
}
