import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { containsInsensitive, limitLiteral } from '../db/dialect.ts';
import type { RedirectsTable } from '../db/types.ts';

/** The SQL of redirects and their hits. */

export type RedirectRow = Selectable<RedirectsTable>;
export type RedirectWithHits = RedirectRow & { hits: number | null; last_hit_at: string | null };

export interface RedirectFilter {
  search?: string;
  source?: string;
  targetMissing?: boolean;
  afterFrom?: string;
  limit: number;
}

function withHits(db: Db) {
  return db.kysely.selectFrom('redirects').leftJoin('redirect_hits', 'redirect_hits.redirect_id', 'redirects.id').selectAll('redirects').select(['redirect_hits.hits', 'redirect_hits.last_hit_at']);
}

/** A page of redirects by `from`, after `afterFrom`; `limit + 1` rows tell whether more follow. */
export async function listRedirects(db: Db, filter: RedirectFilter): Promise<RedirectWithHits[]> {
  let query = withHits(db);
  const search = filter.search;
  if (search !== undefined) query = query.where(({ or }) => or([containsInsensitive('from_path', search), containsInsensitive('to_target', search)]));
  if (filter.source !== undefined) query = query.where('source', '=', filter.source);
  if (filter.targetMissing !== undefined) query = query.where('target_missing', '=', filter.targetMissing ? 1 : 0);
  if (filter.afterFrom !== undefined) query = query.where('from_path', '>', filter.afterFrom);
  return query.orderBy('from_path').limit(limitLiteral(filter.limit + 1)).execute();
}

export async function findRedirect(db: Db, id: string): Promise<RedirectWithHits | undefined> {
  return withHits(db).where('redirects.id', '=', id).executeTakeFirst();
}

/** What the lookup needs of the redirect from `path`. */
export async function findByFrom(db: Db, path: string): Promise<Pick<RedirectRow, 'id' | 'to_target' | 'to_path' | 'status'> | undefined> {
  return db.kysely.selectFrom('redirects').select(['id', 'to_target', 'to_path', 'status']).where('from_path', '=', path).executeTakeFirst();
}

/** Adds a redirect; false when one from the same path exists (nothing written, the transaction still usable). */
export async function insertRedirect(db: Db, row: RedirectRow): Promise<boolean> {
  const result = await db.kysely.insertInto('redirects').values(row).onConflict((conflict) => conflict.column('from_path').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Sets a redirect's columns; false when a new `from` is taken by another. */
export async function updateRedirect(db: Db, id: string, changes: Partial<Omit<RedirectRow, 'id' | 'created_at'>>): Promise<boolean> {
  if (changes.from_path !== undefined) {
    const holder = await db.kysely.selectFrom('redirects').select('id').where('from_path', '=', changes.from_path).where('id', '!=', id).executeTakeFirst();
    if (holder) return false;
  }
  await db.kysely.updateTable('redirects').set(changes).where('id', '=', id).execute();
  return true;
}

export async function deleteRedirect(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('redirects').where('id', '=', id).execute();
}

/** The automatic redirect an entry's move leaves: from its old path, replacing whatever redirect that path had. */
export async function upsertEntryRedirect(db: Db, row: RedirectRow): Promise<void> {
  await db.kysely
    .insertInto('redirects')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('from_path').doUpdateSet({ to_target: row.to_target, to_path: row.to_path, entry_collection: row.entry_collection, entry_id: row.entry_id, target_missing: 0, updated_at: row.updated_at }),
    )
    .execute();
}

export async function deleteFrom(db: Db, path: string): Promise<void> {
  await db.kysely.deleteFrom('redirects').where('from_path', '=', path).execute();
}

/** Points every redirect that led to `oldPath` at the entry's new address, so no chain forms. */
export async function retarget(db: Db, oldPath: string, target: { to: string; path: string; collection: string; entryId: string; now: string }): Promise<void> {
  await db.kysely
    .updateTable('redirects')
    .set({ to_target: target.to, to_path: target.path, entry_collection: target.collection, entry_id: target.entryId, target_missing: 0, updated_at: target.now })
    .where('to_path', '=', oldPath)
    .execute();
}

/**
 * Flags the redirects that lead to any entry of a collection being deleted with its content: its
 * entries go without an entry change each (the table is dropped), so no listener hears of them.
 */
export async function markCollectionTargetsMissing(db: Db, collection: string): Promise<void> {
  await db.kysely.updateTable('redirects').set({ target_missing: 1 }).where('entry_collection', '=', collection).where('target_missing', '=', 0).execute();
}

/**
 * Flags (or clears) the redirects that lead to an entry. Looked for first: on PostgreSQL any write to
 * the table notifies every process (migration 0026), and most trashed entries have no redirect.
 */
export async function markTargetMissing(db: Db, collection: string, entryId: string, missing: boolean): Promise<void> {
  const flag = missing ? 1 : 0;
  const affected = await db.kysely.selectFrom('redirects').select('id').where('entry_id', '=', entryId).where('entry_collection', '=', collection).where('target_missing', '!=', flag).execute();
  if (affected.length === 0) return;
  await db.kysely.updateTable('redirects').set({ target_missing: flag }).where('id', 'in', affected.map((row) => row.id)).execute();
}

/**
 * Adds hits to their redirects' counts. A redirect deleted since it was looked up selects no row, so
 * its hits are dropped rather than failing the batch.
 */
export async function addHits(db: Db, hits: readonly { id: string; count: number; at: string }[]): Promise<void> {
  for (const hit of hits) {
    await db.kysely
      .insertInto('redirect_hits')
      .columns(['redirect_id', 'hits', 'last_hit_at'])
      .expression(
        db.kysely
          .selectFrom('redirects')
          .select(['id', sql<number>`cast(${hit.count} as integer)`.as('hits'), sql<string>`cast(${hit.at} as text)`.as('last_hit_at')])
          .where('id', '=', hit.id),
      )
      .onConflict((conflict) => conflict.column('redirect_id').doUpdateSet({ hits: sql`redirect_hits.hits + excluded.hits`, last_hit_at: sql`excluded.last_hit_at` }))
      .execute();
  }
}
