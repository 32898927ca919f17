import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { startServer } from '../server.ts';
import { explainStartFailure } from './problems.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the HTTP server (migrates the database first)')
    .option('--port <port>', 'port to listen on (PORT, default 3000)')
    .option('--host <host>', 'address to bind (HOST, default 127.0.0.1)')
    .option('--public-url <url>', 'public base URL used in links and OAuth metadata (PUBLIC_URL)')
    .option('--database-url <url>', 'postgres:// URL, file: URL or SQLite path (DATABASE_URL, default ./data/folio.db)')
    .option('--media-dir <dir>', 'where uploaded media is stored (MEDIA_DIR, default ./data/media)')
    .option('--media-storage <kind>', 'local (files under MEDIA_DIR) or s3 (MEDIA_STORAGE, default local)')
    .option('--media-upload-limit <size>', 'largest file an upload may carry, such as 100mb (MEDIA_UPLOAD_LIMIT, default 100mb)')
    .option('--media-allowed-types <types>', 'comma-separated MIME types files may have, type/* allowed (MEDIA_ALLOWED_TYPES)')
    .option('--s3-bucket <name>', 'the bucket media is kept in, with MEDIA_STORAGE=s3 (S3_BUCKET)')
    .option('--s3-region <region>', 'the bucket\'s region (S3_REGION, default us-east-1)')
    .option('--s3-endpoint <url>', 'an S3-compatible service\'s endpoint (S3_ENDPOINT)')
    .option('--s3-force-path-style <bool>', 'address the bucket in the path, not the host name (S3_FORCE_PATH_STYLE, default false)')
    .option('--s3-public-url <url>', 'public base URL of the bucket\'s objects, used in media URLs (S3_PUBLIC_URL)')
    .option('--s3-serve <mode>', 'stream (Folio sends files) or redirect (to a presigned GET) (S3_SERVE, default stream)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (LOG_LEVEL, default info)')
    .option('--log-format <format>', 'pretty (readable lines) or json (LOG_FORMAT, default pretty on a terminal, else json)')
    .option('--cors-origins <origins>', 'comma-separated origins allowed to call the API from browsers (CORS_ORIGINS)')
    .option('--body-limit <size>', 'largest JSON body accepted, such as 10mb (BODY_LIMIT)')
    .option('--scheduler-interval-ms <ms>', 'how often due background jobs (scheduled publications) are looked for, 100-60000 (SCHEDULER_INTERVAL_MS, default 1000)')
    .option('--job-concurrency <n>', 'how many background jobs run at once, 1-100 (JOB_CONCURRENCY, default 4)')
    .option('--outgoing-allow-private-addresses <bool>', 'let requests to URLs others name (webhooks, OAuth client documents, WordPress sites) reach loopback and private addresses (OUTGOING_ALLOW_PRIVATE_ADDRESSES, default false)')
    .option('--job-lease-ms <ms>', 'how long a job\'s claim holds without renewal; a job whose process died is taken over after it (JOB_LEASE_MS, default 30000)')
    .option('--import-upload-limit <size>', 'largest WordPress export file accepted, such as 1gb (IMPORT_UPLOAD_LIMIT, default 1gb)')
    .option('--import-sources <modules>', 'comma-separated modules of extra import sources (IMPORT_SOURCES)')
    .option('--trust-proxy <n>', 'false, true or how many reverse proxies forward requests: the client address then comes from X-Forwarded-For (TRUST_PROXY, default false)')
    .option('--smtp-url <url>', 'smtp:// or smtps:// URL of the server that sends sign-in and invitation mails (SMTP_URL; or SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD)')
    .option('--smtp-from <address>', 'From address of those mails (SMTP_FROM, default folio@ the PUBLIC_URL host)')
    .option('--session-idle-timeout <duration>', 'a browser session ends after this long unused, such as 12h (SESSION_IDLE_TIMEOUT, default 24h)')
    .option('--session-max-age <duration>', 'and this long after sign-in in any case (SESSION_MAX_AGE, default 14d)')
    .action(async (options) => {
      const config = loadConfig(process.env, options);
      const log = await createLogger({ level: config.logLevel, format: config.logFormat });
      const server = await startServer(config, log).catch((error: unknown) => {
        throw explainStartFailure(error, config);
      });
      // After a clean close nothing holds the event loop, so the process ends by itself once the
      // logger's pending writes are out: process.exit() here would let the last lines come out of order.
      const stop = (signal: string) => {
        log.info({ signal }, 'shutting down');
        server.close().then(
          () => {
            process.exitCode = 0;
          },
          (error: unknown) => {
            log.error({ err: error }, 'shutdown failed');
            log.flush(() => process.exit(1));
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
}
