import type { Db } from '../db/connection.ts';
import { lockRowsSkipLocked } from '../db/dialect.ts';

/** The publishing schedule: one row per scheduled entry (migration 0002). */

export async function setSchedule(db: Db, entryId: string, collectionId: string, dueAt: string): Promise<void> {
  await db.kysely
    .insertInto('scheduled_publications')
    .values({ entry_id: entryId, collection_id: collectionId, due_at: dueAt })
    .onConflict((conflict) => conflict.column('entry_id').doUpdateSet({ due_at: dueAt, collection_id: collectionId }))
    .execute();
}

export async function clearSchedule(db: Db, entryId: string): Promise<void> {
  await db.kysely.deleteFrom('scheduled_publications').where('entry_id', '=', entryId).execute();
}

export interface DuePublication {
  entry_id: string;
  collection_id: string;
  due_at: string;
}

/** The collections with entries due by `now`, read without locks (each is then worked on in its own transaction). */
export async function dueCollections(db: Db, now: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom('scheduled_publications').select('collection_id').distinct().where('due_at', '<=', now).execute();
  return rows.map((row) => row.collection_id);
}

/**
 * A collection's due rows, locked for this transaction; rows another process is publishing right now
 * are skipped, and a row is deleted in the transaction that publishes its entry, so each is published once.
 */
export async function claimDue(db: Db, collectionId: string, now: string, limit: number): Promise<DuePublication[]> {
  return lockRowsSkipLocked(
    db,
    db.kysely
      .selectFrom('scheduled_publications')
      .selectAll()
      .where('collection_id', '=', collectionId)
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .orderBy('entry_id')
      .limit(limit),
  ).execute();
}
