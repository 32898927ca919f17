import { logFailure } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { periodic } from '../core/periodic.ts';
import { claimJobs, completeJob, failAttempt, releaseJob, renewLease, type ClaimedJob, type Lease } from './store.ts';
import type { JobContext, JobDefinition } from './types.ts';

export interface RunnerOptions {
  /** The kinds this process runs; jobs of other kinds are left for processes that know them. */
  jobs: readonly JobDefinition<any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- each definition checks its own payload
  /** How many jobs run at once in this process. */
  concurrency: number;
  /** How often to look for due jobs. */
  intervalMs: number;
  /** How long a claim holds without renewal; a crashed worker's jobs are claimed again after it. */
  leaseMs?: number;
  /** Only these jobs, by id (the CLI runs the import it started, not another process's). */
  only?: readonly string[];
}

export interface JobRunner {
  /** Claims and runs due jobs until none is left; resolves when those have finished, with their number. */
  runDue(): Promise<number>;
  /** Polls every `intervalMs` (never two passes at once); failures are logged and the next pass tries again. */
  start(): void;
  /** Stops claiming, asks running handlers to stop, and waits for them; a job stopped unfinished is given back. */
  stop(): Promise<void>;
}

export const defaultLeaseMs = 30_000;
const retryBaseMs = 5_000;
const retryCapMs = 10 * 60_000;

/** The wait before attempt `attempt + 1`: doubling from 5 s, at most 10 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(retryBaseMs * 2 ** (attempt - 1), retryCapMs);
}

/**
 * Runs jobs from the shared table in this process. Claims are leased (`leaseMs`) and renewed while a
 * handler runs, so a job whose process died is claimed again by any process once its lease expires.
 */
export function createJobRunner(ctx: JobContext, options: RunnerOptions): JobRunner {
  const { clock, log } = ctx;
  const leaseMs = options.leaseMs ?? defaultLeaseMs;
  const definitions = new Map(options.jobs.map((definition) => [definition.kind, definition]));
  const kinds = [...definitions.keys()];
  // Names this process in the lease columns, for whoever reads the table.
  const owner = `${process.pid}-${newId()}`;
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();

  const now = () => clock.now().toISOString();
  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs).toISOString();

  async function claimAndRun(): Promise<number> {
    let started = 0;
    while (!stopping.signal.aborted) {
      const free = options.concurrency - inFlight.size;
      if (free === 0) {
        await Promise.race(inFlight);
        continue;
      }
      const claimed = await claimJobs(ctx.db, { kinds, ids: options.only, owner, limit: free, now: now(), leaseExpiresAt: leaseEnd() });
      for (const job of claimed) {
        const running = execute(job).finally(() => inFlight.delete(running));
        inFlight.add(running);
      }
      started += claimed.length;
      if (claimed.length < free) break;
    }
    return started;
  }

  /** Runs one claimed job to its end; never throws (every outcome is stored or logged). */
  async function execute(job: ClaimedJob): Promise<void> {
    const definition = definitions.get(job.kind)!;
    const lease: Lease = job;
    const run = new AbortController();
    const stopRun = () => run.abort(stopping.signal.reason);
    stopping.signal.addEventListener('abort', stopRun);
    const renew = async (progress?: unknown) => {
      if (!(await renewLease(ctx.db, lease, now(), leaseEnd(), progress))) run.abort(new LeaseLostError(job.jobId));
      run.signal.throwIfAborted();
    };
    const heartbeat = setInterval(() => renew().catch(() => undefined), leaseMs / 3);
    heartbeat.unref();
    const jobLog = log.child({ jobId: job.jobId, kind: job.kind, attempt: job.attempt });
    try {
      const payload = definition.payload.safeParse(JSON.parse(job.payload));
      // A payload its kind no longer accepts will not get better with time: failed at once.
      if (!payload.success) {
        await failAttempt(ctx.db, lease, now(), `The payload does not fit the job kind: ${payload.error.message}`, undefined);
        jobLog.error({ issues: payload.error.issues }, 'job failed');
        return;
      }
      const result = await definition.run(ctx, { id: job.jobId, payload: payload.data, attempt: job.attempt, createdBy: job.createdBy, signal: run.signal, progress: renew });
      if (!(await completeJob(ctx.db, lease, now(), result))) jobLog.warn('job finished after its lease was lost; its result is dropped');
    } catch (error) {
      await settleFailure(job, lease, run.signal, error, jobLog);
    } finally {
      clearInterval(heartbeat);
      stopping.signal.removeEventListener('abort', stopRun);
    }
  }

  async function settleFailure(job: ClaimedJob, lease: Lease, signal: AbortSignal, error: unknown, jobLog: JobContext['log']): Promise<void> {
    try {
      if (signal.reason instanceof LeaseLostError) {
        jobLog.warn('job stopped: its lease was lost');
      } else if (signal.aborted) {
        await releaseJob(ctx.db, lease, now());
        jobLog.info('job given back unfinished at shutdown');
      } else {
        const retryAt = job.attempt < job.maxAttempts ? new Date(clock.now().getTime() + retryDelayMs(job.attempt)).toISOString() : undefined;
        await failAttempt(ctx.db, lease, now(), describeError(error), retryAt);
        if (retryAt) jobLog.warn({ err: error, retryAt }, 'job attempt failed; it will be retried');
        else jobLog.error({ err: error }, 'job failed');
      }
    } catch (storeError) {
      // The lease runs out and the job is claimed again: nothing is lost but time.
      logFailure(jobLog, storeError, 'could not record the end of a job', { cause: error });
    }
  }

  const passes = periodic(claimAndRun, { intervalMs: options.intervalMs, log, failure: 'looking for due jobs failed' });

  return {
    async runDue() {
      const count = await passes.runNow();
      await Promise.all(inFlight);
      return count;
    },
    start: passes.start,
    async stop() {
      stopping.abort(new Error('The server is shutting down'));
      await passes.stop();
      await Promise.all(inFlight);
    },
  };
}

class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`The lease on job ${jobId} was lost`);
    this.name = 'LeaseLostError';
  }
}

/** An error as the jobs table keeps it (`last_error`): its message. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
