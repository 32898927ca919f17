import { z } from 'zod';
import type { Db } from '../db/connection.ts';
import { deleteQueuedJob, enqueueJob } from '../jobs/store.ts';
import type { JobKind } from '../jobs/types.ts';

/**
 * The publishing schedule: one queued job per scheduled entry, due at its publication time
 * (docs/decisions/0013-jobs.md); `scheduler.ts` runs them.
 */

export const publishScheduledKind: JobKind<{ collectionId: string; entryId: string; dueAt: string }> = {
  kind: 'content.publishScheduled',
  payload: z.object({ collectionId: z.string(), entryId: z.string(), dueAt: z.string() }),
};

/** Who asked for a change of schedule, and when. */
export interface ScheduleRequest {
  now: string;
  by: string | null;
}

const scheduleKey = (entryId: string) => `content.publishScheduled:${entryId}`;

/** Schedules the entry's publication, replacing a waiting one; in the caller's transaction. */
export async function setSchedule(db: Db, entryId: string, collectionId: string, dueAt: string, request: ScheduleRequest): Promise<void> {
  await enqueueJob(db, publishScheduledKind, { collectionId, entryId, dueAt }, { now: request.now, runAt: dueAt, uniqueKey: scheduleKey(entryId), createdBy: request.by });
}

/** Calls off the entry's waiting publication, if any. */
export async function clearSchedule(db: Db, entryId: string): Promise<void> {
  await deleteQueuedJob(db, scheduleKey(entryId));
}
