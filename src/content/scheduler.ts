import { systemPrincipal } from '../core/context.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { inTransaction } from '../db/dialect.ts';
import { defineJob } from '../jobs/types.ts';
import * as schemaStore from '../schema/store.ts';
import { lockCollection } from '../schema/lookup.ts';
import { publishScheduledKind } from './schedule-store.ts';
import * as store from './store.ts';
import { publishRow } from './write.ts';

/**
 * Publishes one scheduled entry when its job falls due. The transaction first holds the collection
 * against schema changes (the lock order of every content write: collection, then rows), then locks
 * the entry; the job is trusted only while the entry still says the same schedule, so a job that
 * runs twice (its worker crashed after committing) or outlived a change of schedule does nothing.
 */
export const publishScheduledJob = defineJob({
  ...publishScheduledKind,
  async run(ctx, { payload }) {
    const system: AuthorizedContext = { ...ctx, principal: systemPrincipal, actor: undefined };
    const published = await inTransaction(ctx.db, async (db) => {
      const owner = await schemaStore.loadCollectionById(db, payload.collectionId);
      if (!owner) return false;
      const collection = await lockCollection(db, owner.slug, 'share');
      const row = await store.findEntryById(db, collection.tableName, payload.entryId, { lock: true });
      if (!row || row._deleted_at !== null || row._status !== 'scheduled' || row._scheduled_at !== payload.dueAt) return false;
      await publishRow(system, db, collection, row);
      return true;
    });
    if (published) ctx.log.info({ entryId: payload.entryId, collection: payload.collectionId }, 'published scheduled entry');
    return { published };
  },
});
