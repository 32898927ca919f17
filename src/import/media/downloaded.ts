import type { AuthorizedContext } from '../../core/operation.ts';
import { toMediaItem } from '../../media/items.ts';
import { findMediaByIds } from '../../media/store.ts';
import * as store from '../store.ts';

/**
 * What the media imports downloaded, as their checkpoints record it: the downloads write these rows,
 * the URL rewrite and its map read them.
 */

/** The checkpoint rows of downloaded media: one per old URL, whatever site it came from. */
export const mediaSourceKey = 'media';
export const mediaKind = 'media';

/** The map of every file the media imports downloaded: old URL → the media item's URL now. */
export async function storedUrlMap(ctx: AuthorizedContext): Promise<Record<string, string>> {
  const downloaded = await store.importedOfKind(ctx.db, mediaSourceKey, mediaKind);
  const items = new Map((await findMediaByIds(ctx.db, [...new Set(downloaded.map((row) => row.target_id))])).map((row) => [row.id, row]));
  const map: Record<string, string> = {};
  for (const { source_id: url, target_id: mediaId } of downloaded) {
    const item = items.get(mediaId);
    if (item) map[url] = toMediaItem(ctx, item).url;
  }
  return map;
}
