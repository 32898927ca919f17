import { sql, type Selectable, type Updateable } from 'kysely';
import { newId } from '../core/ids.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, limitLiteral, lockRowsSkipLocked } from '../db/dialect.ts';
import type { JobsTable } from '../db/types.ts';
import { defaultMaxAttempts, type Job, type JobKind, type JobState } from './types.ts';

/**
 * The SQL of the jobs table. Every write of a worker names its lease (job, owner, attempt) and
 * changes nothing once the lease is gone: expired and claimed by someone else, or cancelled.
 */

// States appear as literals, not parameters: the partial indexes (migration 0004) match only those.
const queued = sql.lit('queued');
const running = sql.lit('running');

export interface EnqueueOptions {
  now: string;
  /** When it may first run; now by default. */
  runAt?: string;
  /** While a job with this key waits, enqueueing again replaces it (payload, due time, attempts). */
  uniqueKey?: string;
  createdBy?: string | null;
}

/** Adds a job in `db`'s transaction, if any, so it exists only when the write that asked for it commits. Returns its id. */
export async function enqueueJob<Payload>(db: Db, kind: JobKind<Payload>, payload: Payload, options: EnqueueOptions): Promise<string> {
  const request = {
    payload: JSON.stringify(kind.payload.parse(payload)),
    run_at: options.runAt ?? options.now,
    attempts: 0,
    max_attempts: kind.maxAttempts ?? defaultMaxAttempts,
    created_by: options.createdBy ?? null,
    updated_at: options.now,
  };
  const { id } = await db.kysely
    .insertInto('jobs')
    .values({ ...request, id: newId(), kind: kind.kind, state: 'queued', unique_key: options.uniqueKey ?? null, created_at: options.now })
    .onConflict((conflict) => conflict.column('unique_key').where(sql.ref('state'), '=', queued).doUpdateSet({ ...request, last_error: null }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Withdraws the waiting job with this key, if there is one: it never ran, so nothing about it is kept.
 * A running one finishes (its handler checks that its work is still wanted).
 */
export async function deleteQueuedJob(db: Db, uniqueKey: string): Promise<void> {
  await db.kysely.deleteFrom('jobs').where('unique_key', '=', uniqueKey).where('state', '=', queued).execute();
}

export async function findJob(db: Db, id: string): Promise<Job | undefined> {
  const row = await db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toJob(row);
}

function toJob(row: Selectable<JobsTable>): Job {
  const json = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
  return {
    id: row.id,
    kind: row.kind,
    state: row.state as JobState,
    payload: json(row.payload),
    runAt: row.run_at,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    uniqueKey: row.unique_key,
    lastError: row.last_error,
    progress: json(row.progress),
    result: json(row.result),
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** Names one run of a job: the worker's writes apply only while it still holds this lease. */
export interface Lease {
  jobId: string;
  owner: string;
  attempt: number;
}

export interface ClaimedJob extends Lease {
  kind: string;
  /** JSON text, checked against the kind's schema by the runner. */
  payload: string;
  maxAttempts: number;
  createdBy: string | null;
}

export interface ClaimRequest {
  kinds: readonly string[];
  /** Only these jobs (a CLI running the one job it started); any due job of the kinds when absent. */
  ids?: readonly string[];
  owner: string;
  limit: number;
  now: string;
  leaseExpiresAt: string;
}

export const leaseExpiredError = 'The worker running the previous attempt stopped renewing its lease (crashed or cut off)';

/** Jobs of the request's kinds that are due, or whose worker's lease expired, oldest first. */
function claimable(db: Db, request: ClaimRequest, limit: number) {
  const query = db.kysely
    .selectFrom('jobs')
    .select(['id', 'kind', 'payload', 'state', 'attempts', 'max_attempts', 'created_by'])
    .where((where) =>
      where.or([
        where.and([where('state', '=', queued), where('run_at', '<=', request.now)]),
        where.and([where('state', '=', running), where('lease_expires_at', '<=', request.now)]),
      ]),
    )
    .where('kind', 'in', request.kinds)
    .orderBy('run_at')
    .orderBy('id')
    .limit(limitLiteral(limit));
  return request.ids === undefined ? query : query.where('id', 'in', request.ids.length > 0 ? [...request.ids] : ['']);
}

/**
 * Claims up to `limit` jobs of these kinds that are due, or whose worker's lease expired, for
 * `owner`; other processes skip the rows this transaction holds. A job whose last allowed attempt
 * lost its worker is marked failed here instead of run again.
 */
export async function claimJobs(db: Db, request: ClaimRequest): Promise<ClaimedJob[]> {
  if (request.kinds.length === 0 || request.limit <= 0) return [];
  // Most polls find nothing: a plain read first, so an idle process never takes SQLite's write lock.
  if ((await claimable(db, request, 1).execute()).length === 0) return [];
  return inTransaction(db, async (trx) => {
    const candidates = await lockRowsSkipLocked(trx, claimable(trx, request, request.limit)).execute();
    const exhausted = candidates.filter((job) => job.state === 'running' && job.attempts >= job.max_attempts);
    const runnable = candidates.filter((job) => !exhausted.includes(job));
    if (exhausted.length > 0) {
      await trx.kysely
        .updateTable('jobs')
        .set({ ...released(request.now), state: 'failed', last_error: leaseExpiredError, finished_at: request.now })
        .where('id', 'in', exhausted.map((job) => job.id))
        .execute();
    }
    if (runnable.length > 0) {
      await trx.kysely
        .updateTable('jobs')
        .set({
          state: 'running',
          attempts: sql`attempts + 1`,
          lease_owner: request.owner,
          lease_expires_at: request.leaseExpiresAt,
          heartbeat_at: request.now,
          started_at: request.now,
          updated_at: request.now,
          last_error: sql`case when state = ${running} then ${leaseExpiredError} else last_error end`,
        })
        .where('id', 'in', runnable.map((job) => job.id))
        .execute();
    }
    return runnable.map((job) => ({
      jobId: job.id,
      owner: request.owner,
      attempt: job.attempts + 1,
      kind: job.kind,
      payload: job.payload,
      maxAttempts: job.max_attempts,
      createdBy: job.created_by,
    }));
  });
}

/** The columns a worker clears when it lets a job go. */
function released(now: string) {
  return { lease_owner: null, lease_expires_at: null, updated_at: now };
}

/** Applies `changes` to the job while `lease` holds; false when it no longer does. */
async function updateHeld(db: Db, lease: Lease, changes: Updateable<JobsTable>): Promise<boolean> {
  const result = await db.kysely
    .updateTable('jobs')
    .set(changes)
    .where('id', '=', lease.jobId)
    .where('state', '=', running)
    .where('lease_owner', '=', lease.owner)
    .where('attempts', '=', lease.attempt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Renews the lease, storing progress when given; false when the lease was lost. */
export function renewLease(db: Db, lease: Lease, now: string, leaseExpiresAt: string, progress?: unknown): Promise<boolean> {
  const changes = { lease_expires_at: leaseExpiresAt, heartbeat_at: now, updated_at: now };
  return updateHeld(db, lease, progress === undefined ? changes : { ...changes, progress: JSON.stringify(progress) });
}

export function completeJob(db: Db, lease: Lease, now: string, result: unknown): Promise<boolean> {
  return updateHeld(db, lease, { ...released(now), state: 'succeeded', result: JSON.stringify(result ?? null), finished_at: now });
}

/** Records a failed attempt: queued again at `retryAt`, or failed for good when that is undefined. */
export function failAttempt(db: Db, lease: Lease, now: string, error: string, retryAt: string | undefined): Promise<boolean> {
  const outcome = retryAt === undefined ? { state: 'failed', finished_at: now } : { state: 'queued', run_at: retryAt };
  return updateHeld(db, lease, { ...released(now), ...outcome, last_error: error });
}

/** Gives the job back unfinished (the process is stopping): due at once, and this attempt does not count. */
export function releaseJob(db: Db, lease: Lease, now: string): Promise<boolean> {
  return updateHeld(db, lease, { ...released(now), state: 'queued', run_at: now, attempts: lease.attempt - 1 });
}

/**
 * A job an operator asks to run now: one that failed for good, queued again with its attempts counted
 * afresh, or one waiting out a retry's backoff, due at once. Running or finished jobs are left alone;
 * whether it was either of the two is answered.
 */
export async function requeueJob(db: Db, id: string, now: string): Promise<boolean> {
  const failed = await db.kysely.updateTable('jobs').set({ state: 'queued', run_at: now, attempts: 0, finished_at: null, updated_at: now }).where('id', '=', id).where('state', '=', 'failed').executeTakeFirst();
  if (failed.numUpdatedRows > 0n) return true;
  const waiting = await db.kysely.updateTable('jobs').set({ run_at: now, updated_at: now }).where('id', '=', id).where('state', '=', queued).executeTakeFirst();
  return waiting.numUpdatedRows > 0n;
}

/** The newest jobs of a kind, newest first. */
export async function listJobs(db: Db, kind: string, limit: number): Promise<Job[]> {
  const rows = await db.kysely.selectFrom('jobs').selectAll().where('kind', '=', kind).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitLiteral(limit)).execute();
  return rows.map(toJob);
}

/** Removes jobs that are not running (a running job's worker still writes to its row); returns how many went. */
export async function deleteJobs(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.kysely.deleteFrom('jobs').where('id', 'in', [...ids]).where('state', '!=', running).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every finished job of a kind (succeeded or failed): for sweeping those past their keeping. */
export async function listFinishedJobs(db: Db, kind: string): Promise<Job[]> {
  const rows = await db.kysely.selectFrom('jobs').selectAll().where('kind', '=', kind).where('state', 'in', ['succeeded', 'failed']).execute();
  return rows.map(toJob);
}
