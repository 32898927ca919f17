/** The CLI's import run (`folio import wxr`), loaded only when one is asked for. */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { newId } from '../core/ids.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { createJobRunner } from '../jobs/runner.ts';
import { findJob, requeueJob } from '../jobs/store.ts';
import { analyzeUpload } from '../import/analysis.ts';
import { defaultCollection } from '../import/fields.ts';
import { importJob, importKind } from '../import/job/job.ts';
import { jobView } from '../import/job/view.ts';
import { preparePostTypes } from '../import/prepare.ts';
import type { ImportJobView } from '../import/schemas.ts';
import { latestUnfinishedImport } from '../import/store.ts';
import { startImport } from '../import/start.ts';

/** How often the progress bar is redrawn (and the job's row read). */
const progressIntervalMs = 500;

export async function startFileImport(ctx: AuthorizedContext, file: string, includeMedia: boolean): Promise<string> {
  const key = `imports/${newId().toLowerCase()}.xml`;
  const { size } = await ctx.storage.write(key, fs.createReadStream(file), { contentType: 'application/xml' });
  const analysis = await analyzeUpload(ctx, 'wxr', { key, filename: file, size });
  const postTypes = analysis.postTypes.map((type) => ({ name: type.name, collection: defaultCollection(type.name), enabled: true }));
  if (postTypes.length > 0) await preparePostTypes(ctx, { analysisId: analysis.analysisId, postTypes });
  const job = await startImport(ctx, { analysisId: analysis.analysisId, options: { includeMedia, includeTaxonomies: true, includeMenus: true } });
  console.error(`folio: importing ${analysis.site.title || file} (${analysis.postTypes.map((type) => counted(type.count, type.name)).join(', ') || 'no items'}) as job ${job.id}`);
  return job.id;
}

/** `1 post`, `58 posts`, `3 categories`: a WordPress post type's name counted in English. */
function counted(count: number, name: string): string {
  if (count === 1) return `${count} ${name}`;
  if (/[^aeiou]y$/.test(name)) return `${count} ${name.slice(0, -1)}ies`;
  return `${count} ${name}${/(s|x|z|ch|sh)$/.test(name) ? 'es' : 's'}`;
}

/** The newest import job of this file that has not finished well, queued again if it had failed. */
export async function unfinishedImport(ctx: AuthorizedContext, file: string): Promise<string | undefined> {
  const job = await latestUnfinishedImport(ctx.db, importKind.kind, file);
  if (!job) {
    console.error('folio: no unfinished import of this file; starting one (what an earlier import made is not made again)');
    return undefined;
  }
  if (job.state === 'failed') await requeueJob(ctx.db, job.id, new Date().toISOString());
  console.error(`folio: resuming import job ${job.id}`);
  return job.id;
}

/**
 * Runs the job in this process until it has finished, drawing its progress from the first moment (a
 * resumed job starts where it stopped). A job another process holds (a server, or a run that crashed
 * and whose lease has not expired yet) is waited for, saying so. Once `interrupted` fires, the job is
 * stopped after the batch in hand and handed back unfinished: the result is then undefined.
 */
export async function runToEnd(ctx: AuthorizedContext, jobId: string, interrupted: AbortSignal): Promise<ImportJobView | undefined> {
  const { principal: _principal, actor: _actor, ...jobCtx } = ctx;
  const runner = createJobRunner(jobCtx, { jobs: [importJob], concurrency: 1, intervalMs: progressIntervalMs, leaseMs: ctx.config.jobLeaseMs, only: [jobId] });
  // Stopping the runner aborts the running handler, which gives the job back (jobs/runner.ts).
  const stop = () => void runner.stop();
  interrupted.addEventListener('abort', stop, { once: true });
  const bar = progressBar();
  const timer = setInterval(() => void findJob(ctx.db, jobId).then((job) => job && bar.draw(job.progress)).catch(() => undefined), progressIntervalMs);
  let toldWaiting = false;
  try {
    // A resumed job shows where it stands at once, before this process has claimed it.
    const saved = (await findJob(ctx.db, jobId))?.progress;
    if (saved) bar.draw(saved);
    for (;;) {
      const started = await runner.runDue();
      const job = (await findJob(ctx.db, jobId))!;
      bar.draw(job.progress);
      if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') return await jobView(ctx, job);
      if (interrupted.aborted) return undefined;
      if (started === 0 && job.state === 'running' && !toldWaiting) {
        toldWaiting = true;
        console.error(
          `folio: job ${jobId} is still held by another process (a server running it, or an import cut off without handing it back): ` +
            'waiting for its hold to lapse, JOB_LEASE_MS (30 s by default) after that process stopped',
        );
      }
      await sleep(progressIntervalMs, undefined, { signal: interrupted }).catch(() => undefined);
    }
  } finally {
    interrupted.removeEventListener('abort', stop);
    clearInterval(timer);
    bar.end();
    await runner.stop();
  }
}

/** A bar on a terminal; otherwise (logs, CI) a line at each tenth and each new phase. */
function progressBar() {
  const tty = process.stderr.isTTY === true;
  let last = '';
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
        if (`${phase} ${tenth}` !== last) {
          last = `${phase} ${tenth}`;
          process.stderr.write(`folio: ${phase} ${processed}/${total} (${tenth * 10}%)\n`);
        }
      }
    },
    end() {
      if (drawn) process.stderr.write('\n');
    },
  };
}
