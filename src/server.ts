import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { folioCommand } from './cli/hints.ts';
import { createMailer } from './auth/mail.ts';
import { createSetupSecret, isSetupComplete, setupPagePath } from './auth/setup.ts';
import { isIpAddressUrl } from './auth/webauthn.ts';
import { systemClock } from './core/clock.ts';
import { EntryListeners } from './content/listeners.ts';
import { siteExportJob } from './archive/export-job.ts';
import { publishScheduledJob } from './content/scheduler.ts';
import { importJob } from './import/job/job.ts';
import { configuredBaseUrl, type Config } from './config.ts';
import { databaseLocation, openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { openStorage } from './media/storage/open.ts';
import { inChildProcess } from './jobs/child-process.ts';
import { createJobRunner } from './jobs/runner.ts';
import { guardProcess } from './http/escaped-errors.ts';
import type { MediaStorage } from './media/storage/types.ts';
import { startHousekeeping } from './system/housekeeping.ts';
import { hasAnyUser } from './users/store.ts';
import { loadPlugins } from './plugins/loader.ts';

/** The README's command for the first admin, which a fresh installation needs before anything else. */
const firstAdminArgs = 'admin create --email ada@example.com --name "Ada Lovelace"';

/** Every kind of background job this server runs, each run in this process. */
export const jobKinds = [publishScheduledJob, importJob, siteExportJob];

/** The module a server starts to run an import in (its own source's kind: compiled, or TypeScript under tsx). */
const jobProcessEntry = new URL(`./job-process${import.meta.url.slice(import.meta.url.lastIndexOf('.'))}`, import.meta.url);

export interface RunningServer {
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

/** Opens and migrates the database, then listens. Throws (before listening) when the database is unreachable. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  // A bad plugin stops the start before anything is opened, with a message naming it.
  const plugins = await loadPlugins(config.plugins, { hookTimeoutMs: config.pluginHookTimeoutMs });
  const db = await openDatabase(config.database);
  let hasUsers: boolean;
  let setupSecret: string | undefined;
  let storage: MediaStorage;
  try {
    storage = await openStorage(config.media.storage);
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
    hasUsers = await hasAnyUser(db);
    // Only whoever reads this process's output can open the setup page (a fresh public install is
    // not the first visitor's to claim); each start adds its own secret, valid until setup is done.
    if (!(await isSetupComplete(db))) setupSecret = await createSetupSecret(db, systemClock);
  } catch (error) {
    await db.close();
    throw error;
  }
  // Jobs write entries too (scheduled publication): they tell the same listeners as the requests.
  const entryListeners = EntryListeners.of();
  const mailer = createMailer(config, log);
  // An import runs in a process of its own (docs/decisions/0066), whether a request waits for it or the runner took it up.
  const importJobProcess = inChildProcess(importJob, jobProcessEntry);
  const app = createApp({ config, db, log, storage, entryListeners, mailer, plugins, importJobProcess });
  let server: ServerType;
  try {
    server = await listen(app.fetch, config);
  } catch (error) {
    await db.close();
    throw error;
  }
  // From here on no error of one request, nor of background work, ends the process.
  const unguard = guardProcess(log);
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  log.info({ url, database: config.database.kind, databaseLocation: databaseLocation(config.database), media: mediaLocation(config) }, 'folio listening');
  if (!mailer.delivers) {
    log.warn('no SMTP server configured (SMTP_URL or SMTP_HOST): sign-in and invitation links are written to this log instead of being mailed; fine for development, never for a public site');
  }
  // Links are printed at the public address, never at the bound one: 127.0.0.1 cannot make a passkey.
  const publicAddress = configuredBaseUrl({ ...config, port: address.port });
  if (isIpAddressUrl(publicAddress)) log.warn(passkeysRefusedAt(publicAddress, config, address.port));
  if (setupSecret !== undefined) {
    log.info(`setup: create the first admin in your browser at ${publicAddress}${setupPagePath}?secret=${setupSecret} (this link works until setup is complete)`);
  }
  if (!hasUsers) log.info(`no users yet: create the first admin in another terminal, with your own email and name: ${folioCommand(config.database, firstAdminArgs)}`);
  const background = { db, clock: systemClock, config, log, entryListeners, storage, baseUrl: publicAddress, plugins, importJobProcess };
  const jobs = createJobRunner(background, { jobs: jobKinds.map((kind) => (kind === importJob ? importJobProcess : kind)), concurrency: config.jobConcurrency, intervalMs: config.schedulerIntervalMs, leaseMs: config.jobLeaseMs });
  jobs.start();
  const pluginWork = plugins.startBackground(background);
  const housekeeping = startHousekeeping(background);

  let closing: Promise<void> | undefined;
  return {
    url,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive sockets with no request in flight would hold close() open; requests in flight finish first.
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        await jobs.stop();
        importJobProcess.close();
        await pluginWork.stop();
        await housekeeping.stop();
        await mailer.idle();
        mailer.close();
        await db.close();
        await storage.close();
        unguard();
        log.info('folio stopped');
      })()),
  };
}

/** The start-up warning for a public address that is an IP address: why passkeys fail there, and what to use. */
function passkeysRefusedAt(publicAddress: string, config: Config, port: number): string {
  const source = config.publicUrl === undefined ? `HOST ${config.host} (PUBLIC_URL is unset)` : `PUBLIC_URL ${config.publicUrl}`;
  return `${source} makes ${publicAddress} Folio's public address, an IP address: browsers refuse passkeys (WebAuthn) on an IP address, so setup and passkey sign-in will fail there; set PUBLIC_URL to a domain name that reaches this server (http://localhost:${port} on this computer)`;
}

/** Where media is kept, for people: the directory, or the bucket. */
function mediaLocation(config: Config): string {
  const storage = config.media.storage;
  return storage.kind === 'local' ? storage.dir : `s3://${storage.bucket}${storage.endpoint ? ` at ${storage.endpoint}` : ''}`;
}

function listen(fetch: (request: Request) => Response | Promise<Response>, config: Config): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: config.port, hostname: config.host }, () => resolve(server));
    server.once('error', reject);
  });
}
