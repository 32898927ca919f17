import type { z } from 'zod';
import { creditsOf } from '../bylines/credits.ts';
import { AppError } from '../core/errors.ts';
import { collectMediaNames, type NamedMedia } from '../core/media-references.ts';
import type { Db } from '../db/connection.ts';
import { fromColumnValue, responseColumnValue, toColumnValue } from '../fields/columns.ts';
import type { LoadedCollection } from '../schema/store.ts';
import type { FieldDefinition } from '../fields/definition.ts';
import { hasSeo, seoKey, seoOut, storedSeo, type StoredSeo } from '../seo/values.ts';
import { fillMediaReferences, mediaSlots, type MediaLinks } from './media-values.ts';
import type { EntrySchema } from './schemas.ts';
import type { EntryRow } from './store.ts';

export type Entry = z.infer<typeof EntrySchema>;

/**
 * Who reads: editors (role 20 and up) see drafts, the trash and staged changes; readers below see only
 * live entries and only their live values (DECISIONS §2).
 */
export type View = 'editor' | 'reader';

/** The field values held in the entry's columns: the current draft. */
export function columnData(fields: FieldDefinition[], row: EntryRow, read: typeof fromColumnValue = fromColumnValue): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of fields) data[field.slug] = read(field, row[field.slug]);
  return data;
}

/** Field values as columns, for an insert or update. */
export function toColumns(fields: FieldDefinition[], values: Record<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(values, field.slug)) columns[field.slug] = toColumnValue(field, values[field.slug]);
  }
  return columns;
}

/**
 * The live values: the snapshot kept while a draft is staged, else the columns themselves. Fields
 * added after the snapshot read as null; removed ones are dropped.
 */
export function liveData(fields: FieldDefinition[], row: EntryRow): Record<string, unknown> {
  if (row._live === null) return columnData(fields, row);
  const snapshot = JSON.parse(row._live) as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const field of fields) data[field.slug] = snapshot[field.slug] ?? null;
  return data;
}

/** The live version's SEO values: kept in the snapshot beside its field values while a draft is staged. */
export function liveSeo(row: EntryRow): StoredSeo {
  if (row._live === null) return storedSeo(row._seo);
  return storedSeo((JSON.parse(row._live) as Record<string, unknown>)[seoKey]);
}

/** The media an entry's SEO image names, in its working values and its live copy; none when it has none. */
export function seoImageNames(row: EntryRow): NamedMedia | undefined {
  const names: NamedMedia = { ids: new Set(), keys: new Set() };
  collectMediaNames('image', storedSeo(row._seo).image, names);
  if (row._live !== null) collectMediaNames('image', liveSeo(row).image, names);
  return names.ids.size > 0 || names.keys.size > 0 ? names : undefined;
}

export function isLive(row: EntryRow): boolean {
  return row._published_at !== null;
}

export function toEntry(collection: LoadedCollection, row: EntryRow, view: View): Entry {
  const reader = view === 'reader';
  const entry: Entry = {
    id: row._id,
    type: collection.slug,
    slug: row._slug,
    status: reader ? 'published' : row._status,
    locale: row._locale,
    translationGroup: row._group,
    // JSON columns go out as stored, unparsed (core/raw-json.ts).
    data: reader && row._live !== null ? liveData(collection.fields, row) : columnData(collection.fields, row, responseColumnValue),
    createdAt: row._created_at,
    updatedAt: row._updated_at,
    _rev: encodeRev(row._id, row._version),
  };
  if (!reader && row._live !== null) entry.liveData = liveData(collection.fields, row);
  if (hasSeo(collection)) entry.seo = seoOut(reader ? liveSeo(row) : storedSeo(row._seo));
  if (row._published_at !== null) entry.publishedAt = row._published_at;
  if (!reader && row._scheduled_at !== null) entry.scheduledAt = row._scheduled_at;
  if (row._deleted_at !== null) entry.deletedAt = row._deleted_at;
  const credits = creditsOf(row._bylines);
  if (credits.length > 0) {
    entry.bylines = credits;
    entry.primaryBylineId = credits[0];
  }
  return entry;
}

/**
 * Entries about to go out, their image and file values (and SEO images) filled in from the media
 * library (media-values.ts): one lookup for all of them, in both their versions.
 */
export async function withMedia(ctx: MediaLinks, db: Db, collection: LoadedCollection, entries: Entry[]): Promise<Entry[]> {
  const slots = mediaSlots(collection.fields, entries.flatMap((entry) => (entry.liveData ? [entry.data, entry.liveData] : [entry.data])));
  for (const entry of entries) if (entry.seo?.image) slots.push({ values: entry.seo, slug: 'image' });
  await fillMediaReferences(ctx, db, slots);
  return entries;
}

/** One entry as a response shows it. */
export async function entryItem(ctx: MediaLinks, db: Db, collection: LoadedCollection, row: EntryRow, view: View): Promise<{ item: Entry }> {
  const [item] = await withMedia(ctx, db, collection, [toEntry(collection, row, view)]);
  return { item: item! };
}

/** `_rev`: opaque to clients; it names the entry and the save it was read at. */
export function encodeRev(id: string, version: number): string {
  return Buffer.from(`${id}.${version}`).toString('base64url');
}

/** The version a `_rev` names; a token that is malformed or names another entry is a conflict (DECISIONS §3). */
export function decodeRev(rev: string, id: string): number {
  const [revId, version] = Buffer.from(rev, 'base64url').toString('utf8').split('.');
  const number = Number(version);
  if (revId !== id || !Number.isSafeInteger(number) || number < 0) {
    throw new AppError('CONFLICT', 'The _rev token is not valid for this entry; read the entry again', { reason: 'bad_rev' });
  }
  return number;
}
