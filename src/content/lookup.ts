import { AppError, notFound } from '../core/errors.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { roles } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { isMissingSchemaObject } from '../db/dialect.ts';
import { lockCollection, requireCollection } from '../schema/lookup.ts';
import type { LoadedCollection } from '../schema/store.ts';
import { isLive, type View } from './entries.ts';
import * as store from './store.ts';

const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * What the caller may see, decided from whom the operation acts for: the operator (CLI, scheduler) and
 * users from Contributor (20) up see drafts; anyone else, the public included, sees published entries
 * and their live values only (DECISIONS §2).
 */
export function viewOf(ctx: AuthorizedContext): View {
  const { principal } = ctx;
  if (principal?.kind === 'system') return 'editor';
  return principal?.kind === 'user' && principal.role >= roles.contributor ? 'editor' : 'reader';
}

export interface EntryLookup {
  /** An id (ULID) or a slug; ULIDs are upper case and slugs lower case, so only all-digit ones can meet. */
  ref: string;
  locale?: string;
  /** Lock the row for the rest of the transaction (writes). */
  lock?: boolean;
  /** Find trashed entries too (restore, permanent delete); otherwise a trashed entry is not found. */
  includeTrashed?: boolean;
  view: View;
}

/**
 * An entry of a collection, or undefined. A reader never finds an entry that is not live, so what it
 * is told of a missing entry does not reveal whether one exists.
 */
export async function findEntry(db: Db, collection: LoadedCollection, lookup: EntryLookup): Promise<store.EntryRow | undefined> {
  const options = { lock: lookup.lock };
  const bySlug = () =>
    store.findEntryBySlug(db, collection.tableName, lookup.ref, lookup.locale, { ...options, includeTrashed: lookup.includeTrashed, liveOnly: lookup.view === 'reader' });
  // A slug of 26 digits also looks like an id, hence the second look.
  const row = ulidPattern.test(lookup.ref) ? ((await store.findEntryById(db, collection.tableName, lookup.ref, options)) ?? (await bySlug())) : await bySlug();
  if (!row || (row._deleted_at !== null && !lookup.includeTrashed) || (lookup.view === 'reader' && !isLive(row))) return undefined;
  return row;
}

/** The same, or 404: the same 404 for an entry a reader may not see as for one that does not exist. */
export async function requireEntry(db: Db, collection: LoadedCollection, lookup: EntryLookup): Promise<store.EntryRow> {
  const row = await findEntry(db, collection, lookup);
  if (!row) throw notFound(`Entry ${lookup.ref} in ${collection.slug}`);
  return row;
}

/** The collection and the entry an operation acts on. */
export async function loadEntry(
  ctx: AuthorizedContext,
  db: Db,
  input: { collection: string; id: string; locale?: string },
  options: { lock?: boolean; includeTrashed?: boolean } = {},
): Promise<{ collection: LoadedCollection; row: store.EntryRow }> {
  // A write holds the collection against schema changes until it commits (schema/store.ts, lockCollectionRow).
  const collection = options.lock ? await lockCollection(db, input.collection, 'share') : await requireCollection(db, input.collection);
  const row = await requireEntry(db, collection, { ref: input.id, locale: input.locale, view: viewOf(ctx), ...options });
  return { collection, row };
}

/**
 * A read outside a transaction can meet a schema change that removed a column it names between
 * loading the collection and reading the rows: a conflict the client can retry, not a server error.
 */
export async function readDuringSchemaChange<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isMissingSchemaObject(error)) throw new AppError('CONFLICT', 'The collection changed while it was being read; try again', { reason: 'schema_changed' });
    throw error;
  }
}
