import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { explainStartFailure } from './problems.ts';
import { declareSettingFlags } from './setting-flags.ts';

export function registerServeCommand(program: Command): void {
  const serve = declareSettingFlags(program.command('serve').description('start the HTTP server (migrates the database first)'));
  serve.action(async (options) => {
    const config = loadConfig(process.env, options);
    const log = await createLogger({ level: config.logLevel, format: config.logFormat });
    // Loaded when serving only: the whole app is most of what `folio --help` would otherwise load.
    const { startServer } = await import('../server.ts');
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
