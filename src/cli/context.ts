import { configuredBaseUrl, loadConfig, type Config, type ConfigFlags } from '../config.ts';
import { openStorage } from '../media/storage/open.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import { systemClock } from '../core/clock.ts';
import { systemPrincipal, type Context } from '../core/context.ts';
import { openDatabase, type Db } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { loadPlugins } from '../plugins/loader.ts';
import { explainStartFailure } from './problems.ts';
import { EntryListeners } from '../content/listeners.ts';

/** The configured database and storage as they are: an export (or a move's source) migrates nothing under a running server. */
export async function withDatabase<T>(flags: ConfigFlags, work: (config: Config, db: Db, storage: MediaStorage) => Promise<T>): Promise<T> {
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

/**
 * Runs one CLI command against the configured database (the same one the server uses, while it runs),
 * migrated first, acting as the system principal: the operator at the console owns the installation.
 */
export async function withCliContext<T>(flags: ConfigFlags, work: (ctx: Context, config: Config) => Promise<T>): Promise<T> {
  return withDatabase(flags, async (config, db, storage) => {
    // Logs go to stderr so that stdout carries only the command's answer (a token, for scripts).
    const log = await createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, format: config.logFormat, fd: 2 });
    // The CLI's changes fire the same hooks as the server's (the audit log records them); it runs no background work.
    const plugins = await loadPlugins(config.plugins, { hookTimeoutMs: config.pluginHookTimeoutMs });
    await migrateToLatest(db);
    return work({ db, clock: systemClock, config, log, principal: systemPrincipal, entryListeners: EntryListeners.of(), storage, baseUrl: configuredBaseUrl(config), plugins }, config);
  });
}
