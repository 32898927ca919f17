import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { formatSize } from '../backup/files.ts';
import { writeSiteArchive } from '../archive/export.ts';
import { minimumPassphraseLength } from '../archive/secrets.ts';
import { validationError } from '../core/errors.ts';
import { databaseLocation } from '../db/connection.ts';
import { migrations } from '../db/migrate.ts';
import { restoreSiteArchive } from '../archive/restore.ts';
import { withCliContext, withDatabase } from './context.ts';
import { databaseFlags, declareDatabaseFlag } from './setting-flags.ts';
import { yieldToServer } from './priority.ts';

interface ExportFlags {
  databaseUrl?: string;
  full?: boolean;
  passphraseFile?: string;
}


/**
 * `folio export FILE` and `folio import-site FILE` (docs/decisions/0061): the whole site as one
 * portable archive, written while the server runs, restored into an empty Folio on either database.
 */
export function registerArchiveCommands(program: Command): void {
  declareDatabaseFlag(
    program
      .command('export')
      .description('write the whole site (records, media files) into one archive while the server runs')
      .argument('<file>', 'the archive to write (.tar.gz); an existing file is not overwritten')
      .option('--full', 'also the password-equivalents (sessions, tokens, passkeys, OAuth grants…), encrypted: needs --passphrase-file')
      .option('--passphrase-file <file>', 'the file whose first line is the passphrase that encrypts them (--full)'),
  ).action(async (file: string, options: ExportFlags) => {
    yieldToServer();
    const passphrase = await passphraseFor(options.full === true, options.passphraseFile);
    const target = path.resolve(file);
    if (fs.existsSync(target)) throw validationError([{ path: 'file', message: `${file} exists already: give a new file name` }]);
    await withDatabase(databaseFlags(options), async (config, db, storage) => {
      const started = performance.now();
      const partial = `${target}.partial`;
      // Only the owner may read it: it holds users' emails, and with --full their (encrypted) credentials.
      const out = fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 });
      try {
        const sqlitePath = config.database.kind === 'sqlite' ? config.database.path : undefined;
        const totals = await writeSiteArchive({ db, sqlitePath, storage }, out, { now: new Date(), passphrase });
        await fs.promises.rename(partial, target);
        const size = (await fs.promises.stat(target)).size;
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `exported ${totals.tables} tables, ${totals.rows} rows, ${totals.mediaFiles} media files, ${formatSize(size)} in ${seconds.toFixed(1)} s to ${target}${passphrase === undefined ? '' : ' (secrets encrypted)'}`,
        );
        const subscriptions = totals.rowsByTable.webhook_subscriptions ?? 0;
        if (subscriptions > 0) {
          console.log(
            `confidential: the archive holds the signing secrets of ${subscriptions} webhook subscription${subscriptions === 1 ? '' : 's'} in the clear (a receiver trusts what they sign): keep the file as you keep those secrets`,
          );
        }
        if (totals.missingMedia.length > 0) console.log(`media already gone from storage (named by rows, not copied): ${totals.missingMedia.join(', ')}`);
      } catch (error) {
        out.destroy();
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
    });
  });

  declareDatabaseFlag(
    program
      .command('import-site')
      .description('restore a site archive (folio export) into this empty Folio: database and media storage as configured')
      .argument('<file>', 'the archive (.tar.gz)')
      .option('--merge', 'restore beside what the site has: its records are kept, and each record of the archive that conflicts is reported')
      .option('--passphrase-file <file>', 'the passphrase of an archive made with --full: its sign-in secrets are restored too'),
  ).action(async (file: string, options: { databaseUrl?: string; merge?: boolean; passphraseFile?: string }) => {
    const source = path.resolve(file);
    if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw validationError([{ path: 'file', message: `No file ${file}` }]);
    const passphrase = options.passphraseFile === undefined ? undefined : await readPassphrase(options.passphraseFile);
    await withCliContext(databaseFlags(options), async (ctx, config) => {
      const started = performance.now();
      const size = (await fs.promises.stat(source)).size;
      const result = await restoreSiteArchive(ctx, source, { merge: options.merge === true, passphrase, knownMigrations: Object.keys(migrations(ctx.db.dialect)) });
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${result.resumed ? 'resumed and restored' : 'restored'} ${result.tables} tables, ${result.rows} rows, ${result.mediaFiles} media files from ${formatSize(size)} in ${seconds.toFixed(1)} s into ${databaseLocation(config.database)}`,
      );
      for (const note of result.notes) console.log(`note: ${note}`);
      if (result.conflictCount > 0) {
        console.log(`${result.conflictCount} records of the archive were in the site already and were kept as they were:`);
        for (const conflict of result.conflicts) console.log(`  ${conflict.table} ${conflict.key}`);
        if (result.conflictCount > result.conflicts.length) console.log(`  … and ${result.conflictCount - result.conflicts.length} more`);
      }
    });
  });
}

/** The passphrase for `--full`, from the first line of its file; `--full` needs one and only it takes one. */
async function passphraseFor(full: boolean, file: string | undefined): Promise<string | undefined> {
  if (!full && file === undefined) return undefined;
  if (file === undefined) throw validationError([{ path: 'passphrase-file', message: '--full puts the secrets in encrypted: give the passphrase with --passphrase-file FILE' }]);
  if (!full) throw validationError([{ path: 'full', message: '--passphrase-file encrypts the secrets that --full adds: give --full too' }]);
  return readPassphrase(file);
}

export async function readPassphrase(file: string): Promise<string> {
  const text = await fs.promises.readFile(file, 'utf8').catch(() => {
    throw validationError([{ path: 'passphrase-file', message: `Cannot read ${file}` }]);
  });
  const passphrase = text.split(/\r?\n/, 1)[0] ?? '';
  if (passphrase.length < minimumPassphraseLength) {
    throw validationError([{ path: 'passphrase-file', message: `The passphrase in ${file} is shorter than ${minimumPassphraseLength} characters` }]);
  }
  return passphrase;
}
