import { AppError, validationError, type ValidationIssue } from '../core/errors.ts';
import { firstFreeSlug, isUrlSafeSlug, numberedSlug, slugify } from '../core/slugs.ts';
import type { Db } from '../db/connection.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import { toColumnValue } from '../fields/columns.ts';
import { findMediaByIds } from '../media/store.ts';
import * as schemaStore from '../schema/store.ts';
import type { LoadedCollection } from '../schema/store.ts';
import type { View } from './entries.ts';
import { portableTextToPlainText } from './portable-text.ts';
import type { PortableTextBlock } from './value-types.ts';
import { requireEntry } from './lookup.ts';
import { mediaToCheck, referencesToCheck } from './field-values.ts';
import * as store from './store.ts';

/**
 * Slugs that would shadow a route (`GET /content/:c/trash`): refused when given, skipped when generated.
 */
const reservedEntrySlugs = new Set(['trash']);

/** The checks that need the database: referenced entries and media exist, unique values are free. One issue per field. */
export async function databaseIssues(
  db: Db,
  collection: LoadedCollection,
  values: Record<string, unknown>,
  locale: string,
  exceptId?: string,
): Promise<ValidationIssue[]> {
  const issues = (await brokenReferences(db, collection, values)).map(({ field, message }) => ({ path: `data.${field}`, message }));
  for (const field of collection.fields) {
    const value = values[field.slug];
    if (!field.unique || value === null || value === undefined) continue;
    if (await store.valueTaken(db, collection.tableName, field.slug, toColumnValue(field, value), locale, exceptId)) {
      issues.push({ path: `data.${field.slug}`, message: 'Must be unique; another entry has this value' });
    }
  }
  return issues;
}

/** Fields among `values` naming an entry or a media item that is not there, each with why. */
export async function brokenReferences(db: Db, collection: LoadedCollection, values: Record<string, unknown>): Promise<{ field: string; message: string }[]> {
  const entries = (await danglingReferences(db, collection, values)).map(({ field, id, target }) => ({ field, message: `No entry ${id} in ${target}` }));
  return [...entries, ...(await missingMedia(db, collection, values))];
}

/**
 * Media ids among `values` that name no item of the media library: one query for every image and file
 * field of the write, none when no value names an item (a URL-only value names none).
 */
async function missingMedia(db: Db, collection: LoadedCollection, values: Record<string, unknown>): Promise<{ field: string; message: string }[]> {
  const wanted = mediaToCheck(collection.fields, values);
  if (wanted.length === 0) return [];
  const found = new Set((await findMediaByIds(db, [...new Set(wanted.map(({ id }) => id))])).map((item) => item.id));
  return wanted.filter(({ id }) => !found.has(id)).map(({ field, id }) => ({ field, message: `No media item ${id}` }));
}

/** References among `values` whose entry does not exist (or is in the trash): one query per target collection. */
async function danglingReferences(db: Db, collection: LoadedCollection, values: Record<string, unknown>): Promise<{ field: string; id: string; target: string }[]> {
  const byTarget = new Map<string, { field: string; id: string }[]>();
  for (const reference of referencesToCheck(collection.fields, values)) {
    const list = byTarget.get(reference.collection) ?? [];
    list.push(reference);
    byTarget.set(reference.collection, list);
  }
  const dangling = [];
  for (const [target, references] of byTarget) {
    const loaded = await schemaStore.loadCollection(db, target);
    const found = loaded ? await store.existingIds(db, loaded.tableName, references.map((reference) => reference.id)) : new Set<string>();
    for (const reference of references) if (!found.has(reference.id)) dangling.push({ ...reference, target });
  }
  return dangling;
}

/** An explicit slug must be URL-safe and not reserved; the checks that need no database. */
export function explicitSlugIssues(slug: string | undefined): ValidationIssue[] {
  if (slug === undefined || isUrlSafeSlug(slug)) return [];
  return [{ path: 'slug', message: 'Must be URL-safe: lower-case letters, digits and _, words joined by single -' }];
}

export function assertSlugNotReserved(slug: string): void {
  if (reservedEntrySlugs.has(slug)) throw new AppError('RESERVED_SLUG', `The entry slug ${slug} is reserved`, { issues: [{ path: 'slug', message: 'Reserved' }] });
}

/** An explicit slug must be free in the collection and locale: else 409 DUPLICATE_SLUG. */
export async function assertSlugFree(db: Db, collection: LoadedCollection, slug: string, locale: string, exceptId?: string): Promise<void> {
  assertSlugNotReserved(slug);
  if (await store.slugTaken(db, collection.tableName, slug, locale, exceptId)) {
    throw new AppError('DUPLICATE_SLUG', `The slug ${slug} is already used in ${collection.slug} (${locale})`);
  }
}

/** A slug made from `data.title`, else `data.name`, else the collection's singular name; made unique. */
export async function generateSlug(db: Db, collection: LoadedCollection, data: Record<string, unknown>, locale: string): Promise<string> {
  // A rich-text title (a portableText field) gives its plain text.
  const texts = [data.title, data.name].map((value) => (Array.isArray(value) ? portableTextToPlainText(value as PortableTextBlock[]) : value));
  const source = texts.find((value): value is string => typeof value === 'string' && slugify(value) !== '');
  const base = slugify(source ?? collection.labelSingular ?? collection.slug) || 'entry';
  // The first few candidates in one indexed lookup; only a slug used many times needs the scan.
  const candidates = Array.from({ length: 20 }, (_, index) => numberedSlug(base, index + 1));
  const taken = new Set([...(await store.slugsTaken(db, collection.tableName, candidates, locale)), ...reservedEntrySlugs]);
  const free = candidates.find((candidate) => !taken.has(candidate));
  if (free !== undefined) return free;
  return firstFreeSlug(base, new Set([...(await store.slugsStartingWith(db, collection.tableName, base, locale)), ...reservedEntrySlugs]));
}

/**
 * The entry a save writes, locked. A save that writes shared values writes the whole translation
 * group: its rows are locked first, in id order, so two saves in one group wait for each other
 * instead of deadlocking.
 */
export async function lockEntryForSave(db: Db, collection: LoadedCollection, ref: string, view: View, values: Record<string, unknown>): Promise<store.EntryRow> {
  if (Object.keys(sharedValues(collection, values)).length > 0) {
    const unlocked = await requireEntry(db, collection, { ref, view });
    await store.lockGroup(db, collection.tableName, unlocked._group);
  }
  return requireEntry(db, collection, { ref, view, lock: true });
}

/** Values of fields that are not translatable, to be shared with the rest of the translation group. */
export function sharedValues(collection: LoadedCollection, values: Record<string, unknown>): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  for (const field of collection.fields) {
    if (!field.translatable && Object.hasOwn(values, field.slug)) shared[field.slug] = values[field.slug];
  }
  return shared;
}

/**
 * A write that lost a race on a unique index: the slug index means another writer took the slug
 * first (a generated slug is then made again, up to a few times); any other index is a unique field,
 * named from the index (PostgreSQL) or the column (SQLite) in the engine's message.
 */
export async function mapUniqueViolation<T>(collection: LoadedCollection, work: () => Promise<T>, options: { slugGenerated?: boolean } = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const message = (error as Error).message;
      if (message.includes('._slug,') || message.includes('_slug"')) {
        if (options.slugGenerated && attempt < 25) continue;
        throw new AppError('DUPLICATE_SLUG', 'The slug was taken by another save at the same moment');
      }
      const field = collection.fields.find((candidate) => message.includes(`ux_${candidate.id.toLowerCase()}`) || message.includes(`.${candidate.slug},`));
      throw validationError([{ path: field ? `data.${field.slug}` : 'data', message: 'Must be unique; another entry has this value' }]);
    }
  }
}
