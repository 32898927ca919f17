import { sql } from 'kysely';
import { insertRows, runCompiled } from '../db/compiled.ts';
import type { Db } from '../db/connection.ts';
import { limitLiteral } from '../db/dialect.ts';

/**
 * The SQL of search that is the same on both engines: removing documents (their engine's index and
 * their title keys follow, by trigger or cascade), title keys and suggestions, counts. The engines'
 * own parts are in src/db/search-*.ts.
 */

export async function deleteEntryDocuments(db: Db, entryIds: readonly string[]): Promise<void> {
  if (entryIds.length === 0) return;
  await db.kysely.deleteFrom('search_documents').where('entry_id', 'in', entryIds).execute();
}

export async function deleteCollectionDocuments(db: Db, collectionId: string): Promise<void> {
  await db.kysely.deleteFrom('search_documents').where('collection_id', '=', collectionId).execute();
}

/** Documents of collections other than these: left over when a full rebuild starts. */
export async function deleteDocumentsOutside(db: Db, collectionIds: readonly string[]): Promise<void> {
  let query = db.kysely.deleteFrom('search_documents');
  if (collectionIds.length > 0) query = query.where('collection_id', 'not in', collectionIds);
  await query.execute();
}

/**
 * Documents of a collection in the id range (after, upTo] whose entry is gone (a rebuild's batch
 * covers its range this way). `table` is the collection's entry table, named by the loaded
 * collection, never by input.
 */
export async function deleteOrphanDocuments(db: Db, collectionId: string, table: string, range: { after?: string; upTo?: string }): Promise<void> {
  const conditions = [sql`collection_id = ${collectionId}`, sql`not exists (select 1 from ${sql.table(table)} e where e._id = search_documents.entry_id)`];
  if (range.after !== undefined) conditions.push(sql`entry_id > ${range.after}`);
  if (range.upTo !== undefined) conditions.push(sql`entry_id <= ${range.upTo}`);
  await sql`delete from search_documents where ${sql.join(conditions, sql` and `)}`.execute(db.kysely);
}

export async function insertTitleKeys(db: Db, rows: readonly { title_key: string; entry_id: string; variant: string }[]): Promise<void> {
  await insertRows(db, 'search_title_keys', rows);
}

export interface Suggestion {
  collection: string;
  id: string;
  slug: string;
  title: string;
}

/**
 * Live titles with a key starting with `prefix`, in key order: one range of the key index, read no
 * further than `limit` rows. The upper bound is the prefix followed by the highest code point, which
 * sorts after any continuation in byte order on both engines.
 */
export async function suggestTitles(db: Db, prefix: string, limit: number): Promise<Suggestion[]> {
  // Compiled once per limit: building the query costs several times what running it does, and the
  // limit is written in (limitLiteral: bound, SQLite prepared it again on every run). The key range is
  // read first, in a subquery of its own, and documents are read by key: no other table is joined, so
  // no engine's statistics (a one-row collections table beside none for the documents) can make the
  // plan start anywhere else.
  return runCompiled(
    db,
    `search.suggest:${limit}`,
    (kysely) =>
      kysely
        .selectFrom((keys) =>
          keys
            .selectFrom('search_title_keys')
            .select(['title_key', 'entry_id', 'variant'])
            .where('title_key', '>=', '')
            .where('title_key', '<', '')
            .orderBy('title_key')
            .orderBy('entry_id')
            .limit(limitLiteral(limit))
            .as('k'),
        )
        .innerJoin('search_documents as d', (join) => join.onRef('d.entry_id', '=', 'k.entry_id').onRef('d.variant', '=', 'k.variant'))
        .select(['d.collection', 'd.entry_id as id', 'd.slug', 'd.title'])
        .orderBy('k.title_key')
        .orderBy('k.entry_id'),
    [prefix, `${prefix}\u{10FFFF}`],
  );
}

export interface CollectionCounts {
  collection: string;
  entries: number;
  documents: number;
}

/** Per collection with `search`: the entries indexed and their documents (a staged draft makes two). */
export async function countDocuments(db: Db): Promise<CollectionCounts[]> {
  const rows = await db.kysely
    .selectFrom('collections as c')
    .leftJoin('search_documents as d', 'd.collection_id', 'c.id')
    .select((eb) => ['c.slug as collection', 'c.supports', eb.fn.count<number>('d.entry_id').distinct().as('entries'), eb.fn.count<number>('d.entry_id').as('documents')])
    .groupBy(['c.slug', 'c.supports'])
    .orderBy('c.slug')
    .execute();
  return rows
    .filter((row) => (JSON.parse(row.supports) as string[]).includes('search'))
    .map(({ collection, entries, documents }) => ({ collection, entries: Number(entries), documents: Number(documents) }));
}
