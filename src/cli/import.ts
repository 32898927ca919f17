import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { createJobRunner } from '../jobs/runner.ts';
import { findJob, requeueFailedJob } from '../jobs/store.ts';
import { analyzeUpload } from '../import/analysis.ts';
import { defaultCollection } from '../import/fields.ts';
import { importJob, importKind } from '../import/job.ts';
import { jobView } from '../import/job-view.ts';
import { preparePostTypes } from '../import/prepare.ts';
import type { ImportJobView } from '../import/schemas.ts';
import { latestUnfinishedImport } from '../import/store.ts';
import { startImport } from '../import/start.ts';
import { withCliContext } from './context.ts';
import { databaseOption } from './commands.ts';

/** How often the progress bar is redrawn (and the job's row read). */
const progressIntervalMs = 500;

/**
 * `folio import wxr FILE [--media] [--resume]`: the same import as the API's (analysis, prepare with
 * the suggested collections, a job), run in this process with a progress bar on stderr; the report
 * goes to stdout as JSON. `--resume` continues the last unfinished import of the same file instead
 * of starting another (which would duplicate nothing either, but report only what it added).
 */
export function registerImportCommand(program: Command): void {
  const command = program.command('import').description('import content from another platform');
  databaseOption(
    command
      .command('wxr')
      .description('import a WordPress export file (WXR): posts, pages, custom types, terms, menus, authors; prints the report as JSON')
      .argument('<file>', 'the export file (Tools → Export in WordPress)')
      .option('--media', 'record attachments and featured images for the media import')
      .option('--resume', 'continue the last unfinished import of this file where it stopped'),
  ).action(async (file: string, options: { databaseUrl?: string; media?: boolean; resume?: boolean }) => {
    const absolute = path.resolve(file);
    if (!fs.existsSync(absolute) || !fs.statSync(absolute).isFile()) throw validationError([{ path: 'file', message: `No file ${file}` }]);
    await withCliContext(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }, async (baseCtx) => {
      const ctx: AuthorizedContext = { ...baseCtx, actor: undefined };
      const jobId = (options.resume ? await unfinishedImport(ctx, absolute) : undefined) ?? (await startFileImport(ctx, absolute, options.media === true));
      const view = await runToEnd(ctx, jobId);
      if (view.state !== 'succeeded') {
        console.error(`folio: the import stopped: ${view.lastError ?? view.state}; run the same command with --resume to continue it`);
        process.exitCode = 1;
      }
      console.log(JSON.stringify({ jobId, state: view.state, report: view.report }, null, 2));
    });
  });
}

async function startFileImport(ctx: AuthorizedContext, file: string, includeMedia: boolean): Promise<string> {
  const key = `imports/${newId().toLowerCase()}.xml`;
  const { size } = await ctx.storage.write(key, fs.createReadStream(file), { contentType: 'application/xml' });
  const analysis = await analyzeUpload(ctx, 'wxr', { key, filename: file, size });
  const postTypes = analysis.postTypes.map((type) => ({ name: type.name, collection: defaultCollection(type.name), enabled: true }));
  if (postTypes.length > 0) await preparePostTypes(ctx, { analysisId: analysis.analysisId, postTypes });
  const job = await startImport(ctx, { analysisId: analysis.analysisId, options: { includeMedia, includeTaxonomies: true, includeMenus: true } });
  console.error(`folio: importing ${analysis.site.title || file} (${analysis.postTypes.map((type) => `${type.count} ${type.name}`).join(', ') || 'no items'}) as job ${job.id}`);
  return job.id;
}

/** The newest import job of this file that has not finished well, queued again if it had failed. */
async function unfinishedImport(ctx: AuthorizedContext, file: string): Promise<string | undefined> {
  const job = await latestUnfinishedImport(ctx.db, importKind.kind, file);
  if (!job) {
    console.error('folio: no unfinished import of this file; starting one (what an earlier import made is not made again)');
    return undefined;
  }
  if (job.state === 'failed') await requeueFailedJob(ctx.db, job.id, new Date().toISOString());
  console.error(`folio: resuming import job ${job.id}`);
  return job.id;
}

/**
 * Runs the job in this process until it has finished, drawing its progress. A job another process
 * holds (a server, or a run that crashed and whose lease has not expired yet) is waited for.
 */
async function runToEnd(ctx: AuthorizedContext, jobId: string): Promise<ImportJobView> {
  const { principal: _principal, actor: _actor, ...jobCtx } = ctx;
  const runner = createJobRunner(jobCtx, { jobs: [importJob], concurrency: 1, intervalMs: progressIntervalMs, leaseMs: ctx.config.jobLeaseMs, only: [jobId] });
  const bar = progressBar();
  const timer = setInterval(() => void findJob(ctx.db, jobId).then((job) => job && bar.draw(job.progress)).catch(() => undefined), progressIntervalMs);
  try {
    for (;;) {
      await runner.runDue();
      const job = (await findJob(ctx.db, jobId))!;
      bar.draw(job.progress);
      if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') return await jobView(ctx, job);
      await new Promise((resolve) => setTimeout(resolve, progressIntervalMs));
    }
  } finally {
    clearInterval(timer);
    bar.end();
    await runner.stop();
  }
}

/** A bar on a terminal; a line at each tenth otherwise (logs, CI). */
function progressBar() {
  const tty = process.stderr.isTTY === true;
  let lastTenth = -1;
  let drawn = false;
  return {
    draw(progress: unknown) {
      const { phase, processed, total } = (progress ?? { phase: 'queued', processed: 0, total: 0 }) as { phase: string; processed: number; total: number };
      const fraction = total > 0 ? Math.min(processed / total, 1) : 0;
      if (tty) {
        const width = 30;
        const filled = Math.round(fraction * width);
        process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}% ${processed}/${total} ${phase.padEnd(9)}`);
        drawn = true;
      } else {
        const tenth = Math.floor(fraction * 10);
        if (tenth !== lastTenth) {
          lastTenth = tenth;
          process.stderr.write(`folio: ${phase} ${processed}/${total} (${tenth * 10}%)\n`);
        }
      }
    },
    end() {
      if (drawn) process.stderr.write('\n');
    },
  };
}
