import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { limitLiteral, succeedsUnlessTaken } from '../db/dialect.ts';
import type { TaxonomiesTable, TermsTable } from '../db/types.ts';

/** The SQL of taxonomies, their terms and entries' terms. */

export type TaxonomyRow = Selectable<TaxonomiesTable>;
export type TermRow = Selectable<TermsTable>;

/** A definition with the slugs of the collections it applies to. */
export type TaxonomyWithCollections = TaxonomyRow & { collections: string[] };

export async function listTaxonomies(db: Db): Promise<TaxonomyWithCollections[]> {
  const rows = await db.kysely.selectFrom('taxonomies').selectAll().orderBy('name').execute();
  return withCollections(db, rows);
}

export async function findTaxonomy(db: Db, name: string): Promise<TaxonomyWithCollections | undefined> {
  const row = await db.kysely.selectFrom('taxonomies').selectAll().where('name', '=', name).executeTakeFirst();
  return row && (await withCollections(db, [row]))[0];
}

/** One statement for the collections of every definition given. */
async function withCollections(db: Db, rows: TaxonomyRow[]): Promise<TaxonomyWithCollections[]> {
  if (rows.length === 0) return [];
  const links = await db.kysely
    .selectFrom('taxonomy_collections')
    .innerJoin('collections', 'collections.id', 'taxonomy_collections.collection_id')
    .select(['taxonomy_collections.taxonomy_id', 'collections.slug'])
    .where(
      'taxonomy_collections.taxonomy_id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  // Sorted here, not by the engine: PostgreSQL's collation and SQLite's byte order differ on `_`.
  return rows.map((row) => ({ ...row, collections: links.filter((link) => link.taxonomy_id === row.id).map((link) => link.slug).sort() }));
}

/** Adds a definition; false when the name is taken. */
export async function insertTaxonomy(db: Db, row: TaxonomyRow): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.insertInto('taxonomies').values(row).execute());
}

export async function updateTaxonomy(db: Db, id: string, changes: Partial<Pick<TaxonomyRow, 'label' | 'label_singular' | 'url_pattern' | 'updated_at'>>): Promise<void> {
  await db.kysely.updateTable('taxonomies').set(changes).where('id', '=', id).execute();
}

/** The definition's collections become exactly these. */
export async function setTaxonomyCollections(db: Db, taxonomyId: string, collectionIds: readonly string[]): Promise<void> {
  await db.kysely.deleteFrom('taxonomy_collections').where('taxonomy_id', '=', taxonomyId).execute();
  if (collectionIds.length > 0) {
    await db.kysely.insertInto('taxonomy_collections').values(collectionIds.map((collectionId) => ({ taxonomy_id: taxonomyId, collection_id: collectionId }))).execute();
  }
}

/** Adds one collection to the definition's (the importer links taxonomies as their terms are used). */
export async function addTaxonomyCollection(db: Db, taxonomyId: string, collectionId: string): Promise<void> {
  await db.kysely.insertInto('taxonomy_collections').values({ taxonomy_id: taxonomyId, collection_id: collectionId }).onConflict((conflict) => conflict.doNothing()).execute();
}

/** Removes the definition with its terms and every entry's terms of it (in one transaction, the caller's). */
export async function deleteTaxonomy(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('entry_terms').where('taxonomy_id', '=', id).execute();
  // Parents point at terms of the same taxonomy: cleared first, so the rows can go in any order.
  await db.kysely.updateTable('terms').set({ parent_id: null }).where('taxonomy_id', '=', id).execute();
  await db.kysely.deleteFrom('terms').where('taxonomy_id', '=', id).execute();
  await db.kysely.deleteFrom('taxonomy_collections').where('taxonomy_id', '=', id).execute();
  await db.kysely.deleteFrom('taxonomies').where('id', '=', id).execute();
}

/** A page of a taxonomy's terms by slug, after `afterSlug`; `limit + 1` rows tell whether more follow. */
export async function listTerms(db: Db, taxonomyId: string, options: { afterSlug?: string; limit: number }): Promise<TermRow[]> {
  let query = db.kysely.selectFrom('terms').selectAll().where('taxonomy_id', '=', taxonomyId);
  if (options.afterSlug !== undefined) query = query.where('slug', '>', options.afterSlug);
  return query.orderBy('slug').limit(limitLiteral(options.limit + 1)).execute();
}

/** Every term of a taxonomy in tree order: siblings by their place, ties by slug. */
export async function listAllTerms(db: Db, taxonomyId: string): Promise<TermRow[]> {
  return db.kysely.selectFrom('terms').selectAll().where('taxonomy_id', '=', taxonomyId).orderBy('sort_order').orderBy('slug').execute();
}

/** How many entries have each term of a taxonomy, in one statement. */
export async function countEntriesByTaxonomy(db: Db, taxonomyId: string): Promise<Map<string, number>> {
  const rows = await db.kysely
    .selectFrom('entry_terms')
    .select((eb) => ['term_id', eb.fn.countAll<number>().as('count')])
    .where('taxonomy_id', '=', taxonomyId)
    .groupBy('term_id')
    .execute();
  return new Map(rows.map((row) => [row.term_id, Number(row.count)]));
}

/** The place after the last of a parent's children (the top level for null). */
export async function nextTermOrder(db: Db, taxonomyId: string, parentId: string | null): Promise<number> {
  const row = await db.kysely
    .selectFrom('terms')
    .select((eb) => eb.fn.max('sort_order').as('last'))
    .where('taxonomy_id', '=', taxonomyId)
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/** Puts terms under new parents at new places, one statement each (a taxonomy's tree is at most a few thousand). */
export async function placeTerms(db: Db, placements: readonly { id: string; parentId: string | null; sortOrder: number }[], now: string): Promise<void> {
  for (const { id, parentId, sortOrder } of placements) {
    await db.kysely.updateTable('terms').set({ parent_id: parentId, sort_order: sortOrder, updated_at: now }).where('id', '=', id).execute();
  }
}

/** How many entries have each of these terms, in one statement. */
export async function countEntriesByTerm(db: Db, termIds: readonly string[]): Promise<Map<string, number>> {
  if (termIds.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('entry_terms')
    .select((eb) => ['term_id', eb.fn.countAll<number>().as('count')])
    .where('term_id', 'in', [...termIds])
    .groupBy('term_id')
    .execute();
  return new Map(rows.map((row) => [row.term_id, Number(row.count)]));
}

export async function findTermBySlug(db: Db, taxonomyId: string, slug: string): Promise<TermRow | undefined> {
  return db.kysely.selectFrom('terms').selectAll().where('taxonomy_id', '=', taxonomyId).where('slug', '=', slug).executeTakeFirst();
}

/** A term's id and its descendants' ids, in one recursive statement. */
export async function termAndDescendants(db: Db, termId: string): Promise<string[]> {
  const rows = await db.kysely
    .withRecursive('subtree(id)', (query) =>
      query
        .selectFrom('terms')
        .select('id')
        .where('id', '=', termId)
        .unionAll((union) => union.selectFrom('terms').innerJoin('subtree', 'subtree.id', 'terms.parent_id').select('terms.id')),
    )
    .selectFrom('subtree')
    .select('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * How many entries hold any of the terms, counting no further than `upTo`, from the primary key
 * alone. An entry with two of the terms, or one of another collection the taxonomy applies to, may be
 * counted: this only tells few from many, and the list's own filter checks each row.
 */
export async function countEntriesWithTerms(db: Db, termIds: readonly string[], upTo: number): Promise<number> {
  const held = db.kysely.selectFrom('entry_terms').select('entry_id').where('term_id', 'in', [...termIds]).limit(limitLiteral(upTo)).as('held');
  const row = await db.kysely.selectFrom(held).select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findTermsByIds(db: Db, ids: readonly string[]): Promise<TermRow[]> {
  if (ids.length === 0) return [];
  return db.kysely.selectFrom('terms').selectAll().where('id', 'in', [...ids]).execute();
}

/** Adds a term; false when its slug is taken in its taxonomy. */
export async function insertTerm(db: Db, row: TermRow): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.insertInto('terms').values(row).execute());
}

/** Changes a term; false when a new slug is taken in its taxonomy. */
export async function updateTerm(db: Db, id: string, changes: Partial<Omit<TermRow, 'id' | 'taxonomy_id' | 'created_at'>>): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.updateTable('terms').set(changes).where('id', '=', id).execute());
}

/** Removes a term: entries lose it, and its children move up to its parent. */
export async function deleteTerm(db: Db, term: TermRow): Promise<void> {
  await db.kysely.updateTable('terms').set({ parent_id: term.parent_id }).where('parent_id', '=', term.id).execute();
  await db.kysely.deleteFrom('entry_terms').where('term_id', '=', term.id).execute();
  await db.kysely.deleteFrom('terms').where('id', '=', term.id).execute();
}

/** An entry deleted for good takes its terms with it (the write path calls this in its transaction). */
export async function deleteEntryTerms(db: Db, entryId: string): Promise<void> {
  await db.kysely.deleteFrom('entry_terms').where('entry_id', '=', entryId).execute();
}

/** The terms an entry has in a taxonomy, by slug. */
export async function listEntryTerms(db: Db, entryId: string, taxonomyId: string): Promise<TermRow[]> {
  return db.kysely
    .selectFrom('entry_terms')
    .innerJoin('terms', 'terms.id', 'entry_terms.term_id')
    .selectAll('terms')
    .where('entry_terms.entry_id', '=', entryId)
    .where('entry_terms.taxonomy_id', '=', taxonomyId)
    .orderBy('terms.slug')
    .execute();
}

/** Terms of a new entry, in any taxonomies, in one statement (the importer's; an entry being written has none yet). */
export async function addEntryTerms(db: Db, entry: { id: string; collectionId: string }, terms: readonly { termId: string; taxonomyId: string }[], now: string): Promise<void> {
  if (terms.length === 0) return;
  await db.kysely
    .insertInto('entry_terms')
    .values(terms.map((term) => ({ term_id: term.termId, taxonomy_id: term.taxonomyId, collection_id: entry.collectionId, entry_id: entry.id, created_at: now })))
    .execute();
}

/** The entry's terms in a taxonomy become exactly these. */
export async function replaceEntryTerms(db: Db, entry: { id: string; collectionId: string }, taxonomyId: string, termIds: readonly string[], now: string): Promise<void> {
  await db.kysely.deleteFrom('entry_terms').where('entry_id', '=', entry.id).where('taxonomy_id', '=', taxonomyId).execute();
  if (termIds.length === 0) return;
  await db.kysely
    .insertInto('entry_terms')
    .values(termIds.map((termId) => ({ term_id: termId, taxonomy_id: taxonomyId, collection_id: entry.collectionId, entry_id: entry.id, created_at: now })))
    .execute();
}
