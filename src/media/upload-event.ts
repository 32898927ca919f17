import { isoNow } from '../core/clock.ts';
import { newId } from '../core/ids.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { inTransaction } from '../db/dialect.ts';
import { actorOf, emitEvent, mediaSnapshot } from '../plugins/events.ts';
import type { StoredFile } from './ingest.ts';
import { toMediaItem } from './items.ts';
import type { MediaItem } from './schemas.ts';
import { findMediaByHash, insertMedia, type MediaRow } from './store.ts';

/** Inserts a new media record and tells the plugins (`media:afterUpload`) in the same transaction; false when its key is taken. */
export async function insertUploaded(ctx: AuthorizedContext, row: MediaRow): Promise<boolean> {
  return inTransaction(ctx.db, async (tx) => {
    if (!(await insertMedia(tx, row))) return false;
    await emitEvent(ctx, tx, 'media:afterUpload', { item: mediaSnapshot(row), actor: actorOf(ctx.principal) });
    return true;
  });
}

/**
 * The record of a file just stored (an upload, an imported attachment). The same bytes stored before
 * are kept once: the existing record is the answer (`created: false`) and the new copy is removed.
 */
export async function recordStoredFile(
  ctx: AuthorizedContext,
  file: StoredFile,
  fields: { filename: string; alt?: string; caption?: string; title?: string },
): Promise<{ item: MediaItem; row: MediaRow; created: boolean }> {
  const existing = await findMediaByHash(ctx.db, file.contentHash);
  if (existing) {
    await ctx.storage.delete([file.key]);
    return { item: toMediaItem(ctx, existing), row: existing, created: false };
  }
  const now = isoNow(ctx.clock);
  const row: MediaRow = {
    id: newId(),
    storage_key: file.key,
    filename: fields.filename,
    mime_type: file.mimeType,
    size: file.size,
    width: file.dimensions?.width ?? null,
    height: file.dimensions?.height ?? null,
    alt: fields.alt ?? null,
    caption: fields.caption ?? null,
    title: fields.title ?? null,
    content_hash: file.contentHash,
    created_by: ctx.actor?.userId ?? null,
    created_at: now,
    updated_at: now,
  };
  // Keys Folio makes are random: a clash is a bug, not a client's mistake.
  if (!(await insertUploaded(ctx, row))) throw new Error(`storage key ${file.key} is taken`);
  return { item: toMediaItem(ctx, row), row, created: true };
}
