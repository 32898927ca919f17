import pino from 'pino';
import { configuredBaseUrl, loadConfig } from '../../src/config.ts';
import { openStorage } from '../../src/media/storage/open.ts';
import { systemClock } from '../../src/core/clock.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { createJobRunner } from '../../src/jobs/runner.ts';
import { defineJob } from '../../src/jobs/types.ts';
import { crashingKind } from './jobs.ts';
import { EntryListeners } from '../../src/content/listeners.ts';

/**
 * A worker process for the crash test: it runs the one due `crashingKind` job, whose handler reports
 * on stdout and then never finishes, until the test kills the process.
 */
const config = loadConfig(process.env);
const db = await openDatabase(config.database);
const hanging = defineJob({
  ...crashingKind,
  async run(_ctx, job) {
    process.stdout.write(`running ${job.id}\n`);
    // An interval keeps the process alive; the test kills it.
    await new Promise(() => setInterval(() => undefined, 1_000));
  },
});
const runner = createJobRunner(
  { db, clock: systemClock, config, log: pino({ level: 'silent' }), entryListeners: EntryListeners.of(), storage: await openStorage(config.media.storage), baseUrl: configuredBaseUrl(config) },
  { jobs: [hanging], concurrency: 1, intervalMs: 100, leaseMs: Number(process.env.LEASE_MS) },
);
await runner.runDue();
