import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { containsInsensitive, isForeignKeyViolation, limitLiteral, startsWith, succeedsUnlessTaken } from '../db/dialect.ts';
import type { MediaDerivativesTable, MediaTable, MediaUploadGrantsTable } from '../db/types.ts';

/** The SQL of the media library. */

export type MediaRow = Selectable<MediaTable>;
export type DerivativeRow = Selectable<MediaDerivativesTable>;
export type UploadGrantRow = Selectable<MediaUploadGrantsTable>;

export async function findMedia(db: Db, id: string): Promise<MediaRow | undefined> {
  return db.kysely.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The items of `ids` that exist, in one statement (content reads fill in their media with it). */
export async function findMediaByIds(db: Db, ids: readonly string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.kysely.selectFrom('media').selectAll().where('id', 'in', [...ids]).execute();
}

export async function findMediaByKey(db: Db, storageKey: string): Promise<MediaRow | undefined> {
  return db.kysely.selectFrom('media').selectAll().where('storage_key', '=', storageKey).executeTakeFirst();
}

/** The oldest item holding exactly these bytes. */
export async function findMediaByHash(db: Db, contentHash: string): Promise<MediaRow | undefined> {
  return db.kysely.selectFrom('media').selectAll().where('content_hash', '=', contentHash).orderBy('created_at').orderBy('id').limit(limitLiteral(1)).executeTakeFirst();
}

/** The text `q` of `GET /media` looks in. */
const searchedColumns = ['filename', 'title', 'alt', 'caption'] as const;

/** A page newest first, after the (createdAt, id) of the cursor's row; `limit + 1` rows tell whether more follow. */
export async function listMedia(db: Db, options: { mimePrefix?: string; text?: string; after?: { createdAt: string; id: string }; limit: number }): Promise<MediaRow[]> {
  let query = db.kysely.selectFrom('media').selectAll();
  if (options.mimePrefix !== undefined) query = query.where(startsWith('mime_type', options.mimePrefix));
  // A pass over the rows walked in date order (no text index): a library holds thousands of items, not millions.
  const text = options.text;
  if (text !== undefined) query = query.where((eb) => eb.or(searchedColumns.map((column) => containsInsensitive(column, text))));
  const after = options.after;
  if (after) query = query.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitLiteral(options.limit + 1)).execute();
}

/** Adds a record; false when its storage key is taken (a race with another registration of the key). */
export async function insertMedia(db: Db, row: MediaRow): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.insertInto('media').values(row).execute());
}

export async function updateMedia(db: Db, id: string, changes: Partial<Omit<MediaRow, 'id' | 'storage_key' | 'created_at' | 'created_by'>>): Promise<MediaRow | undefined> {
  return db.kysely.updateTable('media').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Removes the record, and any unused direct-upload grant of its key (its URL must not write there again). */
export async function deleteMedia(db: Db, id: string, storageKey: string): Promise<void> {
  await db.kysely.deleteFrom('media').where('id', '=', id).execute();
  await db.kysely.deleteFrom('media_upload_grants').where('storage_key', '=', storageKey).execute();
}

export async function findDerivative(db: Db, mediaId: string, variant: string): Promise<DerivativeRow | undefined> {
  return db.kysely.selectFrom('media_derivatives').selectAll().where('media_id', '=', mediaId).where('variant', '=', variant).executeTakeFirst();
}

/** The master of a large source (transform-limits.ts): its variant name starts with this. */
export const masterVariantPrefix = 'master.';

/** The variants a client asked for; a large source's master is Folio's own and not one of them. */
export async function countDerivatives(db: Db, mediaId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('media_derivatives')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('media_id', '=', mediaId)
    .where((eb) => eb.not(startsWith('variant', masterVariantPrefix)))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The stored master of a large source, whatever its format. */
export async function findMaster(db: Db, mediaId: string): Promise<DerivativeRow | undefined> {
  return db.kysely.selectFrom('media_derivatives').selectAll().where('media_id', '=', mediaId).where(startsWith('variant', masterVariantPrefix)).executeTakeFirst();
}

export async function listDerivativeKeys(db: Db, mediaId: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom('media_derivatives').select('storage_key').where('media_id', '=', mediaId).execute();
  return rows.map((row) => row.storage_key);
}

/**
 * Records a derived image and answers the row that stands: this one, or the one another process
 * recorded first. Undefined when the media item is gone (deleted while the image was made).
 */
export async function insertDerivative(db: Db, row: DerivativeRow): Promise<DerivativeRow | undefined> {
  try {
    await db.kysely
      .insertInto('media_derivatives')
      .values(row)
      .onConflict((conflict) => conflict.columns(['media_id', 'variant']).doNothing())
      .execute();
  } catch (error) {
    if (isForeignKeyViolation(error)) return undefined;
    throw error;
  }
  return findDerivative(db, row.media_id, row.variant);
}

export async function insertUploadGrant(db: Db, row: UploadGrantRow): Promise<void> {
  await db.kysely.insertInto('media_upload_grants').values(row).execute();
}

export async function findUploadGrant(db: Db, id: string): Promise<UploadGrantRow | undefined> {
  return db.kysely.selectFrom('media_upload_grants').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether some grant reserved this key (its bytes may still be on their way). */
export async function findUploadGrantByKey(db: Db, storageKey: string): Promise<UploadGrantRow | undefined> {
  return db.kysely.selectFrom('media_upload_grants').selectAll().where('storage_key', '=', storageKey).executeTakeFirst();
}

/** Takes the grant for one upload: true for exactly one caller while it is unused and unexpired. */
export async function claimUploadGrant(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db.kysely
    .updateTable('media_upload_grants')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a claimed grant back when its upload failed, so the client may try again before it expires. */
export async function releaseUploadGrant(db: Db, id: string): Promise<void> {
  await db.kysely.updateTable('media_upload_grants').set({ used_at: null }).where('id', '=', id).execute();
}

/** Grants long expired are of no use to anyone. */
export async function deleteExpiredUploadGrants(db: Db, before: string): Promise<void> {
  await db.kysely.deleteFrom('media_upload_grants').where('expires_at', '<', before).execute();
}

/** The bytes the library holds (originals; derived images are caches that may be made again). */
export async function totalMediaBytes(db: Db): Promise<number> {
  const row = await db.kysely.selectFrom('media').select((eb) => eb.fn.sum<number | string | null>('size').as('total')).executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}
