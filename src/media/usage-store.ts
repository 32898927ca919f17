import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { MediaUsageTable } from '../db/types.ts';
import { limitLiteral } from '../db/dialect.ts';

/** The SQL of `media_usage` (decisions/0045): which entries name which media items. */

export type UsageRow = Selectable<MediaUsageTable>;

/** A field of an entry naming an item. */
export interface UsagePair {
  fieldId: string;
  mediaId: string;
}

/** The ids of the items stored under these keys (media URLs in content name items by key). */
export async function idsOfKeys(db: Db, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('media').select(['id', 'storage_key']).where('storage_key', 'in', [...new Set(keys)]).execute();
  return new Map(rows.map((row) => [row.storage_key, row.id]));
}

const pairKey = (pair: UsagePair): string => `${pair.fieldId}\n${pair.mediaId}`;

/**
 * Makes an entry's rows these pairs. Most saves (an autosave every few seconds) change no reference:
 * one indexed read then, and the writes only when the set differs.
 */
export async function replaceEntryUsage(db: Db, collectionId: string, entryId: string, pairs: readonly UsagePair[], options: { isNew: boolean }): Promise<void> {
  const wanted = new Set(pairs.map(pairKey));
  if (!options.isNew) {
    const existing = await db.kysely.selectFrom('media_usage').select(['field_id', 'media_id']).where('entry_id', '=', entryId).execute();
    const same = existing.length === wanted.size && existing.every((row) => wanted.has(pairKey({ fieldId: row.field_id, mediaId: row.media_id })));
    if (same) return;
    if (existing.length > 0) await deleteEntryUsage(db, entryId);
  }
  if (pairs.length === 0) return;
  await db.kysely
    .insertInto('media_usage')
    .values(pairs.map((pair) => ({ media_id: pair.mediaId, entry_id: entryId, collection_id: collectionId, field_id: pair.fieldId })))
    .execute();
}

export async function deleteEntryUsage(db: Db, entryId: string): Promise<void> {
  await db.kysely.deleteFrom('media_usage').where('entry_id', '=', entryId).execute();
}

/** A field removed, or changed to a type that names no item: its rows go (a rare schema change, so no index of its own). */
export async function deleteFieldUsage(db: Db, fieldId: string): Promise<void> {
  await db.kysely.deleteFrom('media_usage').where('field_id', '=', fieldId).execute();
}

/** How many entries name an item (an index range of the table's key). */
export async function countUsingEntries(db: Db, mediaId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('media_usage')
    .select((eb) => eb.fn.count<number | string>('entry_id').distinct().as('count'))
    .where('media_id', '=', mediaId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of the entries naming an item, by entry id after `after`, with every field that names it. */
export async function usagePage(db: Db, mediaId: string, after: string | undefined, limit: number): Promise<{ entryIds: string[]; rows: UsageRow[] }> {
  let query = db.kysely.selectFrom('media_usage').select('entry_id').distinct().where('media_id', '=', mediaId);
  if (after !== undefined) query = query.where('entry_id', '>', after);
  const entryIds = (await query.orderBy('entry_id').limit(limitLiteral(limit + 1)).execute()).map((row) => row.entry_id);
  if (entryIds.length === 0) return { entryIds, rows: [] };
  const rows = await db.kysely.selectFrom('media_usage').selectAll().where('media_id', '=', mediaId).where('entry_id', 'in', entryIds.slice(0, limit)).execute();
  return { entryIds, rows };
}
