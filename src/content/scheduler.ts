import { isoNow } from '../core/clock.ts';
import { systemPrincipal, type Context } from '../core/context.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { inTransaction } from '../db/dialect.ts';
import * as schemaStore from '../schema/store.ts';
import { publishRow } from './lifecycle.ts';
import { lockCollection } from '../schema/operations.ts';
import { claimDue, clearSchedule, dueCollections } from './schedule-store.ts';
import * as store from './store.ts';

const batchSize = 50;

/**
 * Publishes every entry whose time has come; returns how many this call published. Work goes by
 * collection: each batch is one transaction that first holds the collection against schema changes
 * (the lock order of every content write: collection, then rows), then claims its due schedule rows
 * (other processes skip them), publishes and deletes them. So with any number of processes on one
 * database each entry is published exactly once, and a schema change waits rather than deadlocks.
 */
export async function publishDueEntries(ctx: Omit<Context, 'principal'>): Promise<number> {
  const system: AuthorizedContext = { ...ctx, principal: systemPrincipal, actor: undefined };
  const now = isoNow(ctx.clock);
  let published = 0;
  for (const collectionId of await dueCollections(ctx.db, now)) {
    for (;;) {
      const { count, done } = await inTransaction(ctx.db, async (db) => {
        const owner = await schemaStore.loadCollectionById(db, collectionId);
        if (!owner) return { count: 0, done: true };
        const collection = await lockCollection(db, owner.slug, 'share');
        const due = await claimDue(db, collectionId, now, batchSize);
        let publishedHere = 0;
        for (const job of due) {
          const row = await store.findEntryById(db, collection.tableName, job.entry_id, { lock: true });
          // The schedule row is only trusted while the entry still says the same: anything else is stale.
          if (row && row._deleted_at === null && row._status === 'scheduled' && row._scheduled_at === job.due_at) {
            await publishRow(system, db, collection, row);
            publishedHere += 1;
          } else {
            await clearSchedule(db, job.entry_id);
          }
        }
        return { count: publishedHere, done: due.length < batchSize };
      });
      published += count;
      if (done) break;
    }
  }
  return published;
}

export interface Scheduler {
  stop(): Promise<void>;
}

/** Looks for due entries every `intervalMs` (never two runs at once in one process); failures are logged and retried. */
export function startScheduler(ctx: Omit<Context, 'principal'>, intervalMs: number): Scheduler {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= publishDueEntries(ctx)
      .then((count) => {
        if (count > 0) ctx.log.info({ count }, 'published scheduled entries');
      })
      .catch((error: unknown) => ctx.log.error({ err: error }, 'scheduled publishing failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
