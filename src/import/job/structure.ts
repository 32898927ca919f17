import { addByline } from '../../bylines/credits.ts';
import { findBylineByUser } from '../../bylines/store.ts';
import { isoNow } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { isUrlSafeSlug, slugify } from '../../core/slugs.ts';
import type { Db } from '../../db/connection.ts';
import { inTransaction } from '../../db/dialect.ts';
import * as taxonomyStore from '../../taxonomies/store.ts';
import { findUserById } from '../../users/store.ts';
import { itemRow, noteRow, type ImportRun } from './run-state.ts';
import type { NormalizedAuthor, NormalizedTerm } from '../sources/types.ts';
import * as store from '../store.ts';
import { taxonomyLabels, taxonomyTarget } from './taxonomy-names.ts';

/**
 * The import's structure, written before any item: bylines for the authors and taxonomies with
 * their terms (parents kept). Each part is one transaction, and what an earlier run of the same
 * source made is reused by source id, so a resumed or repeated import makes nothing twice.
 */

/** Loads what earlier runs of this source made: bylines and terms by source id. */
export async function loadStructure(run: ImportRun): Promise<void> {
  run.bylines.clear();
  run.terms.clear();
  run.taxonomies.clear();
  for (const row of await store.importedOfKind(run.ctx.db, run.sourceKey, 'author')) run.bylines.set(row.source_id, row.target_id);
  for (const taxonomy of await taxonomyStore.listTaxonomies(run.ctx.db)) run.taxonomies.set(taxonomy.name, { id: taxonomy.id, collections: new Set(taxonomy.collections) });
  const termRows = await run.ctx.db.kysely.selectFrom('import_items').select(['kind', 'source_id', 'target_id']).where('source_key', '=', run.sourceKey).where('kind', 'like', 'term:%').execute();
  for (const row of termRows) run.terms.set(`${row.kind.slice('term:'.length)}:${row.source_id}`, row.target_id);
}

/** One byline per author: the mapped user's own (made if they have none), else a guest byline. */
export async function importAuthors(run: ImportRun, authors: NormalizedAuthor[]): Promise<void> {
  const fresh = authors.filter((author) => !run.bylines.has(author.sourceId));
  if (fresh.length > 0) {
    await inTransaction(run.ctx.db, async (db) => {
      const rows = [];
      for (const author of fresh) rows.push(itemRow(run, 'author', author.sourceId, await bylineFor(run, db, author)));
      await store.insertImportItems(db, rows);
    });
    await loadStructure(run);
  }
  await applyAuthorMapping(run);
}

/** A mapped author is credited through the user's byline, even when an earlier import made a guest byline for them. */
export async function applyAuthorMapping(run: ImportRun): Promise<void> {
  for (const login of Object.keys(run.authorMapping)) {
    const id = await inTransaction(run.ctx.db, (db) => bylineFor(run, db, { sourceId: login, login, displayName: login }));
    run.bylines.set(login, id);
  }
}

/** The byline of an author: a mapped user's own byline, or a guest byline made from the source author. */
export async function bylineFor(run: ImportRun, db: Db, author: NormalizedAuthor): Promise<string> {
  const userId = run.authorMapping[author.login];
  if (userId !== undefined) {
    const user = await findUserById(db, userId);
    if (user) return (await findBylineByUser(db, userId))?.id ?? (await addByline(db, run.ctx.clock, { displayName: user.name, userId })).id;
  }
  return (await addByline(db, run.ctx.clock, { displayName: author.displayName, email: author.email ?? null })).id;
}

/**
 * Taxonomies and their terms: terms first, then parents (named by slug in an export), so a child
 * written before its parent in the file still gets it. A slug taken by a term the import did not make is reused (the site's own
 * `uncategorized`, say), never duplicated.
 */
export async function importTerms(run: ImportRun, terms: NormalizedTerm[]): Promise<void> {
  // An export may list a term twice (as wp:category and as wp:term): the first keeps, the second fills in.
  const unique = new Map<string, NormalizedTerm>();
  for (const term of terms) {
    const key = `${term.taxonomy}:${term.sourceId}`;
    const known = unique.get(key);
    unique.set(key, known ? { ...term, ...known, parent: known.parent ?? term.parent, termId: known.termId ?? term.termId } : term);
  }
  const fresh = [...unique.values()].filter((term) => !run.terms.has(`${term.taxonomy}:${term.sourceId}`));
  if (fresh.length === 0) return;
  await inTransaction(run.ctx.db, async (db) => {
    const rows = [];
    const aliases = [];
    const made = new Map<string, { id: string; term: NormalizedTerm }>();
    for (const term of fresh) {
      const id = await ensureTerm(run, db, term);
      made.set(`${term.taxonomy}:${term.sourceId}`, { id, term });
      rows.push(itemRow(run, `term:${term.taxonomy}`, term.sourceId, id));
      if (term.termId !== undefined) aliases.push(itemRow(run, `termid:${term.taxonomy}`, term.termId, id));
    }
    const notes = [];
    for (const { id, term } of made.values()) {
      if (term.parent === undefined) continue;
      const parentKey = `${term.taxonomy}:${term.parent}`;
      const parentId = made.get(parentKey)?.id ?? run.terms.get(parentKey);
      if (parentId === undefined) notes.push(noteRow(run, 'warning', term.sourceId, term.name, `The parent term ${term.parent} of ${term.taxonomy} ${term.slug} is not in the export; it is a top-level term`));
      else await taxonomyStore.updateTerm(db, id, { parent_id: parentId, updated_at: isoNow(run.ctx.clock) });
    }
    await store.insertImportItems(db, rows);
    await store.insertAliases(db, aliases);
    await store.insertNotes(db, notes);
  });
  await loadStructure(run);
}

/** The taxonomy a source taxonomy goes to, created when missing (hierarchical for categories). */
async function ensureTaxonomy(run: ImportRun, db: Db, sourceTaxonomy: string, hierarchical: boolean): Promise<string> {
  const name = taxonomyTarget(sourceTaxonomy);
  const known = run.taxonomies.get(name);
  if (known) return known.id;
  const existing = await taxonomyStore.findTaxonomy(db, name);
  if (existing) {
    run.taxonomies.set(name, { id: existing.id, collections: new Set(existing.collections) });
    return existing.id;
  }
  const now = isoNow(run.ctx.clock);
  const { label, labelSingular } = taxonomyLabels(name);
  const row = { id: newId(), name, label, label_singular: labelSingular, hierarchical: hierarchical || sourceTaxonomy === 'category' ? 1 : 0, url_pattern: null, created_at: now, updated_at: now };
  await taxonomyStore.insertTaxonomy(db, row);
  run.taxonomies.set(name, { id: row.id, collections: new Set() });
  return row.id;
}

/** The term's id: the existing term with its slug, or a new one. */
export async function ensureTerm(run: ImportRun, db: Db, term: NormalizedTerm): Promise<string> {
  const taxonomyId = await ensureTaxonomy(run, db, term.taxonomy, term.parent !== undefined);
  const slug = isUrlSafeSlug(term.slug) ? term.slug : slugify(term.slug) || slugify(term.name) || 'term';
  const existing = await taxonomyStore.findTermBySlug(db, taxonomyId, slug);
  if (existing) return existing.id;
  const now = isoNow(run.ctx.clock);
  const row = { id: newId(), taxonomy_id: taxonomyId, slug, label: (term.name.trim() || slug).slice(0, 200), parent_id: null, description: term.description ?? null, sort_order: 0, created_at: now, updated_at: now };
  await taxonomyStore.insertTerm(db, row);
  return row.id;
}

/** Links the taxonomy to the collection (an entry's terms must be of a taxonomy of its collection). */
export async function linkTaxonomy(run: ImportRun, db: Db, sourceTaxonomy: string, collection: { id: string; slug: string }): Promise<void> {
  const taxonomy = run.taxonomies.get(taxonomyTarget(sourceTaxonomy));
  if (!taxonomy || taxonomy.collections.has(collection.slug)) return;
  await taxonomyStore.addTaxonomyCollection(db, taxonomy.id, collection.id);
  taxonomy.collections.add(collection.slug);
}
