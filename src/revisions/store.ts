import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { RevisionsTable } from '../db/types.ts';

export type RevisionRow = Selectable<RevisionsTable>;

export async function insertRevision(db: Db, row: RevisionRow): Promise<void> {
  await db.kysely.insertInto('revisions').values(row).execute();
}

export async function findRevision(db: Db, id: string): Promise<RevisionRow | undefined> {
  return db.kysely.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first; ids are monotonic ULIDs, so id order is save order. */
export async function listRevisionRows(db: Db, entryId: string, limit: number): Promise<RevisionRow[]> {
  return db.kysely.selectFrom('revisions').selectAll().where('entry_id', '=', entryId).orderBy('id', 'desc').limit(limit).execute();
}

export async function countRevisions(db: Db, entryId: string): Promise<number> {
  const row = await db.kysely.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('total')).where('entry_id', '=', entryId).executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function deleteEntryRevisions(db: Db, entryId: string): Promise<void> {
  await db.kysely.deleteFrom('revisions').where('entry_id', '=', entryId).execute();
}
