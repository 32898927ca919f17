import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { validationError } from '../core/errors.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { databaseFlags, declareDatabaseFlag } from './setting-flags.ts';
import { withCliContext } from './context.ts';
import { folioCommand, shellWord } from './hints.ts';

/**
 * `folio import wxr FILE [--media] [--resume]`: the same import as the API's (analysis, prepare with
 * the suggested collections, a job), run in this process with a progress bar on stderr; the report
 * goes to stdout as JSON. `--resume` continues the last unfinished import of the same file instead
 * of starting another (which would duplicate nothing either, but report only what it added).
 */
export function registerImportCommand(program: Command): void {
  const command = program.command('import').description('import content from another platform');
  declareDatabaseFlag(
    command
      .command('wxr')
      .description('import a WordPress export file (WXR): posts, pages, custom types, terms, menus, authors; prints the report as JSON')
      .argument('<file>', 'the export file (Tools → Export in WordPress)')
      .option('--media', 'download the attachments into the media library and point the imported entries at them')
      .option('--resume', 'continue the last unfinished import of this file where it stopped'),
  ).action(async (file: string, options: { databaseUrl?: string; media?: boolean; resume?: boolean }) => {
    const absolute = path.resolve(file);
    if (!fs.existsSync(absolute) || !fs.statSync(absolute).isFile()) throw validationError([{ path: 'file', message: `No file ${file}` }]);
    // Loaded only when an import runs: the importer (content conversion, XML parser) would slow every other command's start.
    const { startFileImport, unfinishedImport, runToEnd } = await import('./import-run.ts');
    await withCliContext(databaseFlags(options), async (baseCtx, config) => {
      const ctx: AuthorizedContext = { ...baseCtx, actor: undefined };
      const jobId = (options.resume ? await unfinishedImport(ctx, absolute) : undefined) ?? (await startFileImport(ctx, absolute, options.media === true));
      // Ctrl-C (or a service manager's SIGTERM) stops the import after the batch in hand and gives the job
      // back, so `--resume` takes it at once; the way to continue is printed first, in case a second Ctrl-C
      // (the default again: quit at once) comes before that.
      const interruption = new AbortController();
      const interrupt = (signal: NodeJS.Signals) => {
        const resume = folioCommand(config.database, `import wxr ${shellWord(absolute)} --resume`, config.media.storage);
        console.error(`\nfolio: ${signal}: stopping the import where it is (what is imported stays; ${signal === 'SIGINT' ? 'Ctrl-C again quits at once' : 'a second signal quits at once'}); continue it with: ${resume}`);
        interruption.abort();
      };
      process.once('SIGINT', interrupt);
      process.once('SIGTERM', interrupt);
      const view = await runToEnd(ctx, jobId, interruption.signal);
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      if (view === undefined) {
        console.error('folio: the import is stopped; its job waits for --resume');
        process.exitCode = 130;
        return;
      }
      if (view.state !== 'succeeded') {
        console.error(`folio: the import stopped: ${view.lastError ?? view.state}; run the same command with --resume to continue it`);
        process.exitCode = 1;
      }
      console.log(JSON.stringify({ jobId, state: view.state, report: view.report }, null, 2));
    });
  });
}
