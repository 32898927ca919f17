import type { z } from 'zod';
import type { Context } from '../core/context.ts';

/**
 * Background work as durable rows any server process may run: a job is enqueued in the transaction
 * of the write that asks for it, claimed with a lease, retried with backoff, and kept with its
 * progress, result or last error (docs/decisions/0013-jobs.md).
 */

export const jobStates = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof jobStates)[number];

/** A job as stored, JSON values parsed: what a status endpoint will answer. */
export interface Job {
  id: string;
  kind: string;
  state: JobState;
  payload: unknown;
  /** When it may run (next): its due time, or the end of a retry's backoff. */
  runAt: string;
  attempts: number;
  maxAttempts: number;
  uniqueKey: string | null;
  lastError: string | null;
  progress: unknown;
  result: unknown;
  /** The user whose action enqueued it; null for the system. */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** What a handler runs with: no principal, since nobody is calling; a job acts for `createdBy` explicitly when it must. */
export type JobContext = Omit<Context, 'principal'>;

/** The job a handler is running. */
export interface RunningJob<Payload> {
  id: string;
  payload: Payload;
  /** 1 on the first run. */
  attempt: number;
  createdBy: string | null;
  /**
   * Aborted when this run must stop: the lease was lost (the job may already run elsewhere) or the
   * process is shutting down. A handler that honours it ends by throwing; no write of the runner's follows.
   */
  signal: AbortSignal;
  /** Stores the progress (JSON) and renews the lease; throws when the lease was lost. */
  progress(value: unknown): Promise<void>;
}

/** One kind of job, what a writer needs to enqueue it: its name, its payload's schema. */
export interface JobKind<Payload> {
  kind: string;
  payload: z.ZodType<Payload>;
  /** Runs before the job is marked failed; 5 unless the kind says otherwise. */
  maxAttempts?: number;
}

/**
 * A kind with its handler, registered with the runner at start. A handler may run more than once
 * for one job (a crash after its work committed, a lost lease), so it checks that its work is still
 * to be done.
 */
export interface JobDefinition<Payload> extends JobKind<Payload> {
  /** Returns the job's result (JSON); a throw is a failed attempt. */
  run(ctx: JobContext, job: RunningJob<Payload>): Promise<unknown>;
}

export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}

export const defaultMaxAttempts = 5;
