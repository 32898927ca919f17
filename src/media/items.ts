import type { Context } from '../core/context.ts';
import { apiBasePath } from '../http/paths.ts';
import { keyPath } from './keys.ts';
import type { MediaItem } from './schemas.ts';
import type { MediaRow } from './store.ts';

/** Where a stored object is served: the storage's public URL when it has one, else Folio's file route. */
export function fileUrl(ctx: Pick<Context, 'storage' | 'baseUrl'>, storageKey: string): string {
  return ctx.storage.publicUrl(storageKey) ?? `${ctx.baseUrl}${apiBasePath}/media/file/${keyPath(storageKey)}`;
}

/** A record as the API shows it, with the absolute URL of its file. */
export function toMediaItem(ctx: Pick<Context, 'storage' | 'baseUrl'>, row: MediaRow): MediaItem {
  return {
    id: row.id,
    filename: row.filename,
    mimeType: row.mime_type,
    size: row.size,
    width: row.width,
    height: row.height,
    url: fileUrl(ctx, row.storage_key),
    alt: row.alt,
    caption: row.caption,
    title: row.title,
    storageKey: row.storage_key,
    contentHash: row.content_hash,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
