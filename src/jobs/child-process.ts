import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { describeError } from './runner.ts';
import type { JobContext, JobDefinition, RunningJob } from './types.ts';

/**
 * A job kind run in a process of its own (docs/decisions/0066). The process that claimed the job
 * keeps everything the runner does with it — the lease, renewed while the job runs; its progress,
 * stored as the child reports it; its end, stored or given back at shutdown — and the child only runs
 * the handler, on database connections of its own. So a long job (an import) never shares the
 * server's event loop with requests, and a child that dies (out of memory, killed) fails one attempt,
 * retried as any failure is, instead of ending the server.
 */

/** The running job as the child gets it: what `RunningJob` holds besides its signal and progress. */
type JobInfo = Pick<RunningJob<unknown>, 'id' | 'payload' | 'attempt' | 'createdBy'>;

type ToChild =
  | { type: 'start'; kind: string; config: Config; baseUrl: string; job: JobInfo }
  /** The answer to a progress report: stored, or refused (the lease is lost, or the job is stopping). */
  | { type: 'progressed'; id: number; error?: string }
  | { type: 'stop'; reason: string };

type ToParent = { type: 'ready' } | { type: 'progress'; id: number; value: unknown } | { type: 'done'; result: unknown } | { type: 'failed'; message: string };

/** How long a stopped child may take to hand its job back (it stops after the batch in hand) before it is killed. */
const stopGraceMs = 20_000;

/** How long a child started ahead of a job waits for one before it is ended. */
const spareIdleMs = 10 * 60_000;

/** A job definition whose handler runs in a child process, which can be started ahead of the job. */
export interface ChildProcessJob<Payload> extends JobDefinition<Payload> {
  /**
   * Starts a child now, to run the next job of this kind: a process loads its modules in a few
   * hundred milliseconds, which a job started right after (an import after its analysis) then does not
   * wait for. It ends unused after ten minutes.
   */
  warm(log: Logger): void;
  /** Ends a child started ahead that has no job. */
  close(): void;
}

/** A forked child, and when it has loaded its modules and listens. */
interface Forked {
  child: ChildProcess;
  ready: Promise<void>;
}

/** `definition`, whose handler runs in a child process started from `entry` (a module that calls `runJobsForParent`). */
export function inChildProcess<Payload>(definition: JobDefinition<Payload>, entry: URL): ChildProcessJob<Payload> {
  let spare: (Forked & { idle: NodeJS.Timeout }) | undefined;
  const endSpare = () => {
    if (!spare) return;
    clearTimeout(spare.idle);
    // It holds nothing yet (its database opens with its job), and it ignores SIGTERM (runJobsForParent).
    spare.child.kill('SIGKILL');
    spare = undefined;
  };
  return {
    ...definition,
    run(ctx, job) {
      let forked: Forked;
      if (spare && !hasExited(spare.child)) {
        clearTimeout(spare.idle);
        forked = spare;
        forked.child.ref();
        forked.child.channel?.ref();
      } else {
        endSpare();
        forked = forkChild(entry);
      }
      spare = undefined;
      return runInChild(ctx, definition.kind, forked, job);
    },
    warm(log) {
      if (spare) return;
      const forked = forkChild(entry);
      log.info({ kind: definition.kind, jobProcess: forked.child.pid }, 'job process started ahead of its job');
      // A child waiting for a job keeps nobody alive; a server that exits takes it along (its channel closes).
      forked.child.unref();
      forked.child.channel?.unref();
      forked.ready.then(
        () => log.debug({ kind: definition.kind, jobProcess: forked.child.pid }, 'job process ready for its job'),
        () => undefined,
      );
      const idle = setTimeout(endSpare, spareIdleMs);
      idle.unref();
      spare = { ...forked, idle };
      forked.child.once('exit', () => {
        if (spare?.child === forked.child) spare = undefined;
      });
    },
    close: endSpare,
  };
}

function forkChild(entry: URL): Forked {
  const child = fork(fileURLToPath(entry), [], {
    execArgv: childExecArgv(entry),
    // Its log lines go where the server's go; its stdin is not the server's to give.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const ready = new Promise<void>((resolve, reject) => {
    const listening = (message: ToParent) => {
      if (message.type !== 'ready') return;
      child.off('message', listening);
      resolve();
    };
    child.on('message', listening);
    child.once('exit', () => reject(new Error(`The job's process ended (${describeExit(child.exitCode, child.signalCode)}) before it was ready`)));
    child.once('error', reject);
  });
  return { child, ready };
}

function runInChild(ctx: JobContext, kind: string, { child, ready }: Forked, job: RunningJob<unknown>): Promise<unknown> {
  const jobLog = ctx.log.child({ jobId: job.id, kind, jobProcess: child.pid });
  jobLog.info('job running in a process of its own');
  return new Promise((resolve, reject) => {
    let outcome: { result: unknown } | { error: Error } | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const send = (message: ToChild) => {
      // A child already gone cannot be told anything; its exit settles the job.
      if (child.connected) child.send(message, (error) => error && jobLog.debug({ err: error }, 'a message to the job process was not delivered'));
    };
    const stop = () => {
      send({ type: 'stop', reason: describeError(job.signal.reason) });
      killTimer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
      killTimer.unref();
    };
    job.signal.addEventListener('abort', stop, { once: true });
    const settle = () => {
      job.signal.removeEventListener('abort', stop);
      clearTimeout(killTimer);
      if (outcome !== undefined && 'result' in outcome) resolve(outcome.result);
      else reject(outcome?.error ?? new Error(`The job's process ended (${describeExit(child.exitCode, child.signalCode)}) before the job finished`));
    };
    child.on('message', (message: ToParent) => {
      if (message.type === 'progress') {
        job.progress(message.value).then(
          () => send({ type: 'progressed', id: message.id }),
          (error: unknown) => send({ type: 'progressed', id: message.id, error: describeError(error) }),
        );
      } else if (message.type === 'done') {
        outcome = { result: message.result };
      } else if (message.type === 'failed') {
        outcome = { error: new Error(message.message) };
      }
    });
    // Settled once the child is gone, so a stopped server never closes its database under a child still writing.
    if (hasExited(child)) settle();
    else child.once('exit', settle);
    child.once('error', (error) => {
      // Only a child that never started ends here; other errors are a message not delivered, and its exit follows.
      if (child.pid !== undefined) return;
      outcome = { error };
      settle();
    });
    ready.then(
      () => send({ type: 'start', kind, config: ctx.config, baseUrl: ctx.baseUrl, job: { id: job.id, payload: job.payload, attempt: job.attempt, createdBy: job.createdBy } }),
      () => undefined,
    );
  });
}

/** The compiled entry runs with the server's own Node.js flags; a TypeScript one (tests, `npm run dev`) through tsx, as the server itself ran. */
function childExecArgv(entry: URL): string[] {
  if (!entry.pathname.endsWith('.ts')) return process.execArgv;
  return ['--conditions=development', '--import', import.meta.resolve('tsx')];
}

/** What a child process opens to run a job, and how to close it. */
export interface OpenedJobContext {
  ctx: JobContext;
  close(): Promise<void>;
}

/**
 * The child's side: waits for the job its parent sends, runs it with `definitions`' handler on the
 * context `open` builds from the parent's configuration, reports its progress and end, and exits. It
 * stops when its parent says so, or when its parent is gone (killed: the lease then runs out and any
 * process resumes the job).
 */
export function runJobsForParent(definitions: readonly JobDefinition<any>[], open: (config: Config, baseUrl: string) => Promise<OpenedJobContext>): void { // eslint-disable-line @typescript-eslint/no-explicit-any -- each definition checks its own payload
  const stopping = new AbortController();
  const answers = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let lastId = 0;
  const send = (message: ToParent) => new Promise<void>((resolve) => (process.connected ? process.send!(message, undefined, {}, () => resolve()) : resolve()));

  const progress = (value: unknown) =>
    new Promise<void>((resolve, reject) => {
      // As in the parent's runner: a stopped job stores nothing more, and a parent gone cannot answer.
      if (stopping.signal.aborted) return reject(stopping.signal.reason as Error);
      const id = ++lastId;
      answers.set(id, { resolve, reject });
      void send({ type: 'progress', id, value });
    });

  process.on('message', (message: ToChild) => {
    if (message.type === 'start') void run(message);
    else if (message.type === 'stop') stopping.abort(new Error(message.reason));
    else {
      const answer = answers.get(message.id);
      answers.delete(message.id);
      if (message.error === undefined) answer?.resolve();
      else answer?.reject(new Error(message.error));
    }
  });
  process.once('disconnect', () => {
    stopping.abort(new Error('The process that started this job is gone'));
    for (const answer of answers.values()) answer.reject(new Error('The process that started this job is gone'));
    // Nobody is left to end this process: a job that does not stop in time (a download hanging) is cut off.
    setTimeout(() => process.exit(1), stopGraceMs).unref();
  });
  // Ctrl-C at a terminal and a service manager's SIGTERM reach the whole process group: the parent
  // decides when its job stops (it says so, or it is gone), so the batch in hand is never cut.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  void send({ type: 'ready' });

  async function run(start: Extract<ToChild, { type: 'start' }>): Promise<void> {
    let opened: OpenedJobContext | undefined;
    try {
      const definition = definitions.find((candidate) => candidate.kind === start.kind);
      if (!definition) throw new Error(`This process does not run jobs of kind ${start.kind}`);
      opened = await open(start.config, start.baseUrl);
      const payload: unknown = definition.payload.parse(start.job.payload);
      const result: unknown = await definition.run(opened.ctx, { ...start.job, payload, signal: stopping.signal, progress });
      await send({ type: 'done', result });
    } catch (error) {
      await send({ type: 'failed', message: describeError(error) });
    } finally {
      await opened?.close();
      if (process.connected) process.disconnect();
      // Done: whatever a library left open (a pool's timer, a keep-alive socket) does not keep the job's slot taken.
      setTimeout(() => process.exit(), 1_000).unref();
    }
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal === null ? `exit code ${code}` : `killed by ${signal}`;
}
