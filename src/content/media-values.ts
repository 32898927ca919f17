import type { Context } from '../core/context.ts';
import { RawJson } from '../core/raw-json.ts';
import type { Db } from '../db/connection.ts';
import type { StoredMediaReference } from '../fields/types/media-reference.ts';
import { fileUrl } from '../media/items.ts';
import { findMediaByIds, type MediaRow } from '../media/store.ts';
import type { FieldDefinition } from '../fields/definition.ts';
import { isMediaField } from './field-values.ts';
import type { LibraryMedia, MediaReference } from './value-types.ts';

/**
 * Image and file values on their way out (decisions/0014). They are stored as `{id?, url?, alt?, caption?}`
 * and filled in on read only, so a change of the item's URL (or of PUBLIC_URL) shows at once: the
 * item's current URL, dimensions and type, or `missing: true` once the item is deleted. One lookup
 * serves a whole response, every entry and version in it; none is made when no value names an item.
 * Only these fields are parsed: the other JSON columns still go out as stored (core/raw-json.ts).
 */

/** What a file's URL is made from. */
export type MediaLinks = Pick<Context, 'storage' | 'baseUrl'>;

/** A stored value that names a media item. */
type StoredLink = StoredMediaReference & { id: string };

/** Where a media value sits: `values[slug]`, filled in place. */
export interface MediaSlot {
  values: Record<string, unknown>;
  slug: string;
}

/** The image and file values of each set of field values (an entry's data, its live data). */
export function mediaSlots(fields: readonly FieldDefinition[], sets: readonly Record<string, unknown>[]): MediaSlot[] {
  const mediaFields = fields.filter(isMediaField);
  return sets.flatMap((values) => mediaFields.map(({ slug }) => ({ values, slug })));
}

/** Fills in, in place, the image and file values of each set of field values. */
export async function fillMediaValues(ctx: MediaLinks, db: Db, fields: readonly FieldDefinition[], sets: readonly Record<string, unknown>[]): Promise<void> {
  await fillMediaReferences(ctx, db, mediaSlots(fields, sets));
}

/** Fills in, in place, the media values at the slots: one lookup for all of them, none when no value names an item. */
export async function fillMediaReferences(ctx: MediaLinks, db: Db, slots: readonly MediaSlot[]): Promise<void> {
  const pending = slots.flatMap(({ values, slug }) => {
    const stored = storedReference(values[slug]);
    return stored ? [{ values, slug, stored }] : [];
  });
  if (pending.length === 0) return;
  const rows = await findMediaByIds(db, [...new Set(pending.map(({ stored }) => stored.id))]);
  const items = new Map(rows.map((row) => [row.id, row]));
  for (const { values, slug, stored } of pending) values[slug] = filledReference(ctx, stored, items.get(stored.id));
}

/** The stored value if it names a media item; undefined for an empty or URL-only one, which goes out as it is. */
function storedReference(value: unknown): StoredLink | undefined {
  const parsed: unknown = value instanceof RawJson ? JSON.parse(value.text) : value;
  return typeof parsed === 'object' && parsed !== null && typeof (parsed as StoredMediaReference).id === 'string' ? (parsed as StoredLink) : undefined;
}

/**
 * The item as it is now; the entry's own `alt` wins over the item's (an empty one marks a decorative
 * image). An item deleted since leaves the value as stored, marked missing.
 */
function filledReference(ctx: MediaLinks, stored: StoredLink, item: MediaRow | undefined): MediaReference {
  if (!item) return { ...stored, missing: true };
  const alt = stored.alt ?? item.alt ?? undefined;
  const filled: LibraryMedia = { id: item.id, url: fileUrl(ctx, item.storage_key), width: item.width, height: item.height, mimeType: item.mime_type };
  if (alt !== undefined) filled.alt = alt;
  if (stored.caption !== undefined) filled.caption = stored.caption;
  return filled;
}
