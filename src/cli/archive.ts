import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { formatSize } from '../backup/files.ts';
import { writeSiteArchive } from '../archive/export.ts';
import { minimumPassphraseLength } from '../archive/secrets.ts';
import { loadConfig, type Config, type ConfigFlags } from '../config.ts';
import { validationError } from '../core/errors.ts';
import { openDatabase } from '../db/connection.ts';
import { openStorage } from '../media/storage/open.ts';
import { explainStartFailure } from './problems.ts';
import { declareDatabaseFlag } from './setting-flags.ts';

interface ExportFlags {
  databaseUrl?: string;
  full?: boolean;
  passphraseFile?: string;
}

const flagsOf = (options: { databaseUrl?: string }): ConfigFlags => (options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl });

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
    const passphrase = await passphraseFor(options.full === true, options.passphraseFile);
    const target = path.resolve(file);
    if (fs.existsSync(target)) throw validationError([{ path: 'file', message: `${file} exists already: give a new file name` }]);
    await withDatabase(flagsOf(options), async (config, db, storage) => {
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
        if (totals.missingMedia.length > 0) console.log(`media already gone from storage (named by rows, not copied): ${totals.missingMedia.join(', ')}`);
      } catch (error) {
        out.destroy();
        await fs.promises.rm(partial, { force: true });
        throw error;
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

/** The configured database and storage as they are: an export migrates nothing under a running server. */
async function withDatabase<T>(flags: ConfigFlags, work: (config: Config, db: Awaited<ReturnType<typeof openDatabase>>, storage: Awaited<ReturnType<typeof openStorage>>) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env, flags, process.stderr.isTTY === true);
  const db = await openDatabase(config.database).catch((error: unknown) => {
    throw explainStartFailure(error, config);
  });
  const storage = await openStorage(config.media.storage);
  try {
    return await work(config, db, storage);
  } finally {
    await db.close();
    await storage.close();
  }
}
