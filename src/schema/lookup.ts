import { notFound } from '../core/errors.ts';
import type { Db } from '../db/connection.ts';
import * as store from './store.ts';
import type { CollectionSchema } from './types.ts';

/**
 * Collections as the other areas look them up: content, revisions, search, the scheduler and the
 * importer act on a collection named by its slug, and a missing one is their 404.
 */

export async function requireCollection(db: Db, slug: string): Promise<store.LoadedCollection> {
  return found(await store.loadCollection(db, slug), slug);
}

/** Inside a transaction: the collection as it stands, locked against (`share`) or for (`update`) schema changes. */
export async function lockCollection(db: Db, slug: string, mode: 'share' | 'update'): Promise<store.LoadedCollection> {
  return found(await findLockedCollection(db, slug, mode), slug);
}

/** The same, or undefined when there is no such collection (one deleted meanwhile ends a rebuild, not a 404). */
export async function findLockedCollection(db: Db, slug: string, mode: 'share' | 'update'): Promise<store.LoadedCollection | undefined> {
  await store.lockCollectionRow(db, slug, mode);
  return store.loadCollection(db, slug);
}

function found(collection: store.LoadedCollection | undefined, slug: string): store.LoadedCollection {
  if (!collection) throw notFound(`Collection ${slug}`);
  return collection;
}

/** Every collection with its fields, in slug order: two statements whatever their number. */
export async function collectionsWithFields(db: Db): Promise<CollectionSchema[]> {
  const fieldRows = await store.listFieldRows(db);
  return (await store.listCollectionRows(db)).map((row) => ({
    ...store.toCollection(row),
    fields: fieldRows.filter((field) => field.collection_id === row.id).map(store.toField),
  }));
}
