import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { RevisionsTable } from '../db/types.ts';
import { limitLiteral } from '../db/dialect.ts';

export type RevisionRow = Selectable<RevisionsTable>;
/** A revision with its author's display name (null when the save had no user, or the user is gone). */
export type NamedRevisionRow = RevisionRow & { author_name: string | null };

function namedRevisions(db: Db) {
  return db.kysely
    .selectFrom('revisions')
    .leftJoin('users', 'users.id', 'revisions.author_id')
    .selectAll('revisions')
    .select('users.name as author_name');
}

export async function insertRevision(db: Db, row: RevisionRow): Promise<void> {
  await db.kysely.insertInto('revisions').values(row).execute();
}

export async function findRevision(db: Db, id: string): Promise<NamedRevisionRow | undefined> {
  return namedRevisions(db).where('revisions.id', '=', id).executeTakeFirst();
}

/** Newest first; ids are monotonic ULIDs, so id order is save order. */
export async function listRevisionRows(db: Db, entryId: string, limit: number): Promise<NamedRevisionRow[]> {
  return namedRevisions(db).where('revisions.entry_id', '=', entryId).orderBy('revisions.id', 'desc').limit(limitLiteral(limit)).execute();
}

export async function countRevisions(db: Db, entryId: string): Promise<number> {
  const row = await db.kysely.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('total')).where('entry_id', '=', entryId).executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function deleteEntryRevisions(db: Db, entryId: string): Promise<void> {
  await db.kysely.deleteFrom('revisions').where('entry_id', '=', entryId).execute();
}
