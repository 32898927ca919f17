/**
 * The process a server runs an import in (jobs/child-process.ts, docs/decisions/0066): it opens the
 * database, media storage and plugins of the configuration its parent sends, runs the one job it is
 * given, and exits. Its log lines go to the server's output, in the server's format.
 */
import { systemClock } from './core/clock.ts';
import { EntryListeners } from './content/listeners.ts';
import { openDatabase } from './db/connection.ts';
import { importJob } from './import/job/job.ts';
import { runJobsForParent } from './jobs/child-process.ts';
import { createLogger } from './logger.ts';
import { openStorage } from './media/storage/open.ts';
import { loadPlugins } from './plugins/loader.ts';

runJobsForParent([importJob], async (config, baseUrl) => {
  const log = (await createLogger({ level: config.logLevel, format: config.logFormat })).child({ jobProcess: process.pid });
  // The import's writes fire the plugins' hooks as the server's do (the audit log records them); the
  // hand-over to the plugins' background work stays with the server.
  const plugins = await loadPlugins(config.plugins, { hookTimeoutMs: config.pluginHookTimeoutMs });
  const db = await openDatabase(config.database);
  const storage = await openStorage(config.media.storage).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  return {
    ctx: { db, clock: systemClock, config, log, entryListeners: EntryListeners.of(), storage, baseUrl, plugins },
    async close() {
      await db.close();
      await storage.close();
    },
  };
});
