import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { inTransaction } from '../src/db/dialect.ts';
import { retryDelayMs } from '../src/jobs/runner.ts';
import { claimJobs, enqueueJob, findJob, leaseExpiredError } from '../src/jobs/store.ts';
import { defineJob, type JobDefinition, type JobKind, type RunningJob } from '../src/jobs/types.ts';
import { createTestApp, type TestApp } from './support/harness.ts';
import { crashingKind, spawnJobWorker, testJobRunner } from './support/jobs.ts';

/** A promise with its resolve at hand: how a test and a running handler wait for each other without sleeping. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

let kindCounter = 0;

/** A job kind of this test's own, so no other test's jobs are claimed with it. */
function testJob<Payload = { n: number }>(run: (job: RunningJob<Payload>) => Promise<unknown>, options: { maxAttempts?: number; payload?: z.ZodType<Payload> } = {}): JobDefinition<Payload> {
  return defineJob({
    kind: `test.kind${++kindCounter}`,
    payload: options.payload ?? (z.object({ n: z.number() }) as unknown as z.ZodType<Payload>),
    maxAttempts: options.maxAttempts,
    run: (_ctx, job) => run(job),
  });
}

describe('jobs', () => {
  let t: TestApp;
  const now = () => t.clock.now().toISOString();
  const enqueue = <P>(definition: JobKind<P>, payload: P, db: Db = t.db) => enqueueJob(db, definition, payload, { now: now() });
  const runner = (definition: JobDefinition<any>, leaseMs?: number) => testJobRunner(t, { jobs: [definition], leaseMs }); // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    t = await createTestApp();
  });
  /**
   * Another handle on the database, as another process has. On SQLite it is the same connection:
   * better-sqlite3 blocks the thread while it waits for the write lock, so a second connection in
   * this process would wait on the first without letting it finish (processes: scheduler.test.ts).
   */
  const otherHandle = async (): Promise<{ db: Db; close(): Promise<void> }> => {
    if (t.db.dialect === 'sqlite') return { db: t.db, close: async () => undefined };
    const db = await openDatabase(t.config.database);
    return { db, close: () => db.close() };
  };
  afterAll(() => t.close());

  it('exists only when the transaction that enqueued it commits', async () => {
    const echo = testJob(async (job) => ({ doubled: job.payload.n * 2 }));
    let rolledBack = '';
    await expect(
      inTransaction(t.db, async (trx) => {
        rolledBack = await enqueue(echo, { n: 1 }, trx);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(rolledBack).not.toBe('');
    expect(await findJob(t.db, rolledBack)).toBeUndefined();

    const committed = await inTransaction(t.db, (trx) => enqueueJob(trx, echo, { n: 2 }, { now: now(), createdBy: t.admin.id }));
    expect(await findJob(t.db, committed)).toMatchObject({ kind: echo.kind, state: 'queued', payload: { n: 2 }, attempts: 0, createdBy: t.admin.id });
    expect(await runner(echo).runDue()).toBe(1);
    expect(await findJob(t.db, committed)).toMatchObject({ state: 'succeeded', attempts: 1, result: { doubled: 4 }, finishedAt: now() });
  });

  it('gives each job to one claimer when two claim at once', async () => {
    const other = await otherHandle();
    try {
      const kind = testJob(async () => null);
      const ids = new Set<string>();
      for (let n = 0; n < 30; n++) ids.add(await enqueue(kind, { n }));
      const claim = (db: Db, owner: string) => claimJobs(db, { kinds: [kind.kind], owner, limit: 20, now: now(), leaseExpiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
      const [first, second] = await Promise.all([claim(t.db, 'first'), claim(other.db, 'second')]);
      const firstIds = first.map((job) => job.jobId);
      const secondIds = second.map((job) => job.jobId);
      expect(firstIds.filter((id) => secondIds.includes(id))).toEqual([]);
      expect(new Set([...firstIds, ...secondIds])).toEqual(ids);
      expect((await findJob(t.db, secondIds[0]!))?.state).toBe('running');
    } finally {
      await other.close();
    }
  });

  it('runs each job once when two runners share the queue', async () => {
    const other = await otherHandle();
    try {
      const runs: number[] = [];
      const kind = testJob(async (job) => runs.push(job.payload.n));
      for (let n = 0; n < 12; n++) await enqueue(kind, { n });
      const second = testJobRunner({ ...t, db: other.db }, { jobs: [kind], concurrency: 3 });
      const [a, b] = await Promise.all([testJobRunner(t, { jobs: [kind], concurrency: 3 }).runDue(), second.runDue()]);
      expect(a + b).toBe(12);
      expect(runs.sort((x, y) => x - y)).toEqual([...Array(12).keys()]);
    } finally {
      await other.close();
    }
  });

  it('retries a failed attempt after its backoff, keeping the error meanwhile', async () => {
    const flaky = testJob(async (job) => {
      if (job.attempt === 1) throw new Error('the remote end hung up');
      return 'done';
    });
    const id = await enqueue(flaky, { n: 1 });
    const failedAt = t.clock.now().getTime();
    expect(await runner(flaky).runDue()).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({
      state: 'queued',
      attempts: 1,
      lastError: 'the remote end hung up',
      runAt: new Date(failedAt + retryDelayMs(1)).toISOString(),
    });
    t.clock.advance(retryDelayMs(1) - 1);
    expect(await runner(flaky).runDue()).toBe(0);
    t.clock.advance(1);
    expect(await runner(flaky).runDue()).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'succeeded', attempts: 2, result: 'done' });
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
  });

  it('fails a job for good after its last attempt, with the error kept', async () => {
    const doomed = testJob(
      async (job) => {
        throw new Error(`attempt ${job.attempt} broke`);
      },
      { maxAttempts: 2 },
    );
    const id = await enqueue(doomed, { n: 1 });
    expect(await runner(doomed).runDue()).toBe(1);
    t.clock.advance(retryDelayMs(1));
    expect(await runner(doomed).runDue()).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'failed', attempts: 2, maxAttempts: 2, lastError: 'attempt 2 broke', finishedAt: now() });
    t.clock.advance(24 * 3_600_000);
    expect(await runner(doomed).runDue()).toBe(0);
  });

  it('fails at once a job whose stored payload its kind no longer accepts', async () => {
    const strict = testJob(async () => 'should not run');
    const id = await enqueue(strict, { n: 1 });
    await t.db.kysely.updateTable('jobs').set({ payload: '{"n":"one"}' }).where('id', '=', id).execute();
    expect(await runner(strict).runDue()).toBe(1);
    const job = await findJob(t.db, id);
    expect(job).toMatchObject({ state: 'failed', attempts: 1, result: null });
    expect(job?.lastError).toMatch(/^The payload does not fit the job kind/);
  });

  it('shows progress while it runs and the result after', async () => {
    const reported = deferred();
    const finish = deferred();
    const counting = testJob(async (job) => {
      await job.progress({ done: 1, total: 2 });
      reported.resolve();
      await finish.promise;
      await job.progress({ done: 2, total: 2 });
      return { counted: 2 };
    });
    const id = await enqueue(counting, { n: 1 });
    const running = runner(counting).runDue();
    await reported.promise;
    expect(await findJob(t.db, id)).toMatchObject({ state: 'running', attempts: 1, progress: { done: 1, total: 2 }, result: null, startedAt: now() });
    finish.resolve();
    expect(await running).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'succeeded', progress: { done: 2, total: 2 }, result: { counted: 2 } });
  });

  it('is claimed again by another worker once the lease of a crashed worker process expires', async () => {
    const leaseMs = 60_000;
    // Due by the worker's clock, the real one (this test's clock may be ahead of it).
    const id = await enqueueJob(t.db, crashingKind, { note: 'crash me' }, { now: now(), runAt: new Date().toISOString() });
    const child = spawnJobWorker(t.database.url, leaseMs);
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          if (output.includes(`running ${id}`)) resolve();
        });
        child.once('close', (code) => reject(new Error(`the worker exited (${code}) before running the job: ${output}`)));
      });
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const crashed = await t.db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(crashed).toMatchObject({ state: 'running', attempts: 1 });

    const recovering = defineJob({ ...crashingKind, run: async (_ctx, job) => `recovered on attempt ${job.attempt}` });
    // The worker's lease ends by the real clock: this clock is set to just before then, then to it.
    t.clock.advance(Date.parse(crashed.lease_expires_at!) - t.clock.now().getTime() - 1);
    expect(await runner(recovering, leaseMs).runDue()).toBe(0);
    t.clock.advance(1);
    expect(await runner(recovering, leaseMs).runDue()).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'succeeded', attempts: 2, result: 'recovered on attempt 2', lastError: leaseExpiredError });
  });

  it('fails a job whose last attempt lost its worker instead of running it again', async () => {
    const once = testJob(async () => 'should not run', { maxAttempts: 1 });
    const id = await enqueue(once, { n: 1 });
    // Claimed and never heard of again, as when the process dies at once.
    const lease = await claimJobs(t.db, { kinds: [once.kind], owner: 'gone', limit: 1, now: now(), leaseExpiresAt: new Date(t.clock.now().getTime() + 1_000).toISOString() });
    expect(lease).toHaveLength(1);
    t.clock.advance(1_000);
    expect(await runner(once).runDue()).toBe(0);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'failed', attempts: 1, lastError: leaseExpiredError, result: null });
  });

  it('stops a worker that lost its lease from writing: another worker’s outcome stands', async () => {
    const leaseMs = 60_000;
    const claimedFirst = deferred();
    const resumeFirst = deferred();
    const claimedSecond = deferred();
    const resumeSecond = deferred();
    const kind = testJob(async (job) => {
      const [claimed, resume] = job.attempt === 1 ? [claimedFirst, resumeFirst] : [claimedSecond, resumeSecond];
      claimed.resolve();
      await resume.promise;
      const worker = job.attempt === 1 ? 'first worker' : 'second worker';
      await job.progress(worker);
      return worker;
    });
    const id = await enqueue(kind, { n: 1 });
    const first = runner(kind, leaseMs).runDue();
    await claimedFirst.promise;
    t.clock.advance(leaseMs);
    const second = runner(kind, leaseMs).runDue();
    await claimedSecond.promise;
    // The first worker wakes up while the second holds the job: its progress is refused and it stops.
    resumeFirst.resolve();
    expect(await first).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'running', attempts: 2, progress: null });
    resumeSecond.resolve();
    expect(await second).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'succeeded', attempts: 2, result: 'second worker', progress: 'second worker' });
  });

  it('gives a job back unfinished when its process shuts down, without counting the attempt', async () => {
    const started = deferred();
    const patient = testJob(
      (job) =>
        new Promise((_, reject) => {
          job.signal.addEventListener('abort', () => reject(job.signal.reason));
          started.resolve();
        }),
    );
    const id = await enqueue(patient, { n: 1 });
    const running = runner(patient);
    running.start();
    await started.promise;
    await running.stop();
    expect(await findJob(t.db, id)).toMatchObject({ state: 'queued', attempts: 0, runAt: now(), lastError: null });
  });

  it('keeps one waiting job per unique key: enqueueing again replaces it, and a running one may have a successor', async () => {
    const started = deferred();
    const finish = deferred();
    const kind = testJob(async () => {
      started.resolve();
      await finish.promise;
    });
    const key = `rebuild-${kindCounter}`;
    const later = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const first = await enqueueJob(t.db, kind, { n: 1 }, { now: now(), uniqueKey: key, runAt: later });
    const replaced = await enqueueJob(t.db, kind, { n: 2 }, { now: now(), uniqueKey: key });
    expect(replaced).toBe(first);
    expect(await findJob(t.db, first)).toMatchObject({ state: 'queued', payload: { n: 2 }, runAt: now() });

    const running = runner(kind).runDue();
    await started.promise;
    const successor = await enqueueJob(t.db, kind, { n: 3 }, { now: now(), uniqueKey: key });
    expect(successor).not.toBe(first);
    finish.resolve();
    expect(await running).toBe(1);
    expect(await findJob(t.db, successor)).toMatchObject({ state: 'queued', payload: { n: 3 } });
  });
});
