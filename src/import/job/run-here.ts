import type { AuthorizedContext } from '../../core/operation.ts';
import { createJobRunner } from '../../jobs/runner.ts';
import { findJob } from '../../jobs/store.ts';
import type { Job } from '../../jobs/types.ts';
import { importJob } from './job.ts';
import { jobView, requireImportJob } from './view.ts';
import type { ImportJobView } from '../schemas.ts';

/**
 * `POST /import/legacy/execute` answers when the import is done (issue 29, item 19), so the request
 * runs the job it queued, in its own process, as the CLI does: a runner told to run that job only,
 * claiming it with a lease like any runner, so no other process runs it at the same time, and if the
 * process dies the lease runs out and any process resumes it. A server runs the job's work in a
 * process of its own (`importJobProcess`), so the import does not slow the requests it answers. Nothing here listens to the request's
 * abort: a client that hangs up leaves the job running to its end.
 */

/** How often the job's row is read while another process holds it, and while its lines are followed. */
const pollMs = 250;

const finishedStates: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

export function hasFinished(job: { state: string }): boolean {
  return finishedStates.has(job.state);
}

/**
 * Runs the import job here until it has finished, or until it waits for a retry (an attempt failed,
 * and backs off for seconds to minutes: the server's runner takes it up then; a request does not
 * wait that long). A job another process holds is followed until the same; one whose holder died
 * is taken over once its lease has run out.
 */
export async function runImportHere(ctx: AuthorizedContext, jobId: string): Promise<Job> {
  const { principal: _principal, actor: _actor, ...jobCtx } = ctx;
  const runner = createJobRunner(jobCtx, { jobs: [ctx.importJobProcess ?? importJob], concurrency: 1, intervalMs: pollMs, leaseMs: ctx.config.jobLeaseMs, only: [jobId] });
  try {
    for (;;) {
      await runner.runDue();
      const job = (await findJob(ctx.db, jobId))!;
      if (hasFinished(job) || waitsForRetry(job, ctx)) return job;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    await runner.stop();
  }
}

/** Queued again after a failed attempt, due later than now. */
function waitsForRetry(job: Job, ctx: AuthorizedContext): boolean {
  return job.state === 'queued' && Date.parse(job.runAt) > ctx.clock.now().getTime();
}

/**
 * The job as it changes: a view at each change of its state, progress or attempts, read from the
 * database (so any process may be running it), until it has finished, or, given `running`, until that
 * run has settled (a rejected run ends the lines with its error). Stopping the iteration (a client gone)
 * stops only the reading.
 */
export async function* importJobUpdates(ctx: AuthorizedContext, jobId: string, running?: Promise<unknown>): AsyncGenerator<ImportJobView> {
  let settled = false;
  // Also handles the run's rejection, so a run nobody follows any more never goes unhandled.
  const settling = running?.then(
    () => (settled = true),
    () => (settled = true),
  );
  let last = '';
  for (;;) {
    // Read before the row: the last row read is then one written after the run settled.
    const runEnded = settled;
    const view = await jobView(ctx, await requireImportJob(ctx, jobId));
    const seen = JSON.stringify([view.state, view.progress, view.attempts]);
    if (seen !== last) {
      last = seen;
      yield view;
    }
    if (runEnded) {
      await running;
      return;
    }
    if (running === undefined && hasFinished(view)) return;
    const pause = new Promise((resolve) => setTimeout(resolve, pollMs));
    await (settling ? Promise.race([pause, settling]) : pause);
  }
}
