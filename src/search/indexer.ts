import type { EntryChangeListener } from '../content/changes.ts';
import { entriesAfter, type EntryRow } from '../content/store.ts';
import type { Db } from '../db/connection.ts';
import { searchEngine } from '../db/search-engine.ts';
import type { LoadedCollection } from '../schema/store.ts';
import { entryDocuments, isSearchable, titleKeyRows } from './documents.ts';
import * as store from './store.ts';

/**
 * Keeps the index exact inside every writer's transaction (docs/decisions/0020). Entry writes reach
 * it as a built-in listener of the one write path (content/write.ts), so no process (server,
 * scheduler, CLI, importer) can leave it out; schema changes call `reindexCollection`.
 */

/**
 * Entries read and indexed per statement batch (and per transaction in a rebuild). Each commit flushes
 * FTS5's pending terms as a new segment, to be merged later: 1,000 rather than 500 took a quarter off a
 * rebuild on SQLite, and holds the write lock a quarter of a second per batch; larger batches gained
 * little more.
 */
export const indexBatchSize = 1000;

/** Replaces the documents of the given entries (already deleted, or new) with what they now are. */
export async function writeDocuments(db: Db, collection: LoadedCollection, rows: readonly EntryRow[]): Promise<number> {
  const documents = rows.flatMap((row) => entryDocuments(collection, row));
  await searchEngine(db).insertDocuments(db, documents);
  await store.insertTitleKeys(db, titleKeyRows(documents));
  return documents.length;
}

/** The listener: an entry of a collection with `search` gets its documents replaced; others cost nothing. */
export const indexEntryChange: EntryChangeListener = async (change, tx) => {
  if (!isSearchable(change.collection)) return;
  if (change.kind !== 'created') await store.deleteEntryDocuments(tx, [change.entryId]);
  if (change.kind !== 'deleted') await writeDocuments(tx, change.collection, [change.entry]);
};

/**
 * Indexes a whole collection anew in the caller's transaction: when `search` is added to it, or a
 * field's part in its documents changes. Without `search`, its documents are only removed.
 */
export async function reindexCollection(tx: Db, collection: LoadedCollection): Promise<void> {
  await store.deleteCollectionDocuments(tx, collection.id);
  if (!isSearchable(collection)) return;
  let after: string | undefined;
  for (;;) {
    const rows = await entriesAfter(tx, collection.tableName, after, indexBatchSize);
    await writeDocuments(tx, collection, rows);
    if (rows.length < indexBatchSize) return;
    after = rows.at(-1)!._id;
  }
}

/**
 * One batch of a rebuild, in its own transaction: the next entries after `after`, locked, their
 * documents replaced, and documents in their id range whose entries are gone removed. Returns the
 * last id read (undefined at the end) and the documents written.
 */
export async function rebuildBatch(tx: Db, collection: LoadedCollection, after: string | undefined): Promise<{ last?: string; entries: number; documents: number }> {
  const rows = await entriesAfter(tx, collection.tableName, after, indexBatchSize, { lock: true });
  const last = rows.length === indexBatchSize ? rows.at(-1)!._id : undefined;
  await store.deleteEntryDocuments(tx, rows.map((row) => row._id));
  await store.deleteOrphanDocuments(tx, collection.id, collection.tableName, { after, upTo: last });
  const documents = await writeDocuments(tx, collection, rows);
  return { last, entries: rows.length, documents };
}
