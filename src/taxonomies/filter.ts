import { validationError } from '../core/errors.ts';
import type { Db } from '../db/connection.ts';
import { ReadCache } from '../db/read-cache.ts';
import * as store from './store.ts';

/**
 * A content list filtered by `taxonomy:slug` matches entries holding the term or, in a hierarchical
 * taxonomy, one of its descendants, as WordPress's category pages do ("News" lists posts filed under
 * "News › Local"). A taxonomy or term that does not exist, or a taxonomy that does not apply to the
 * collection, is a 400 naming `term`: a list answers for what was asked, not with an empty page.
 *
 * How the list finds them depends on how many there are (decisions/0017). For a term on few entries
 * the list reads those rows by id; for a busy term it walks its sort index checking each entry's
 * terms until the page is full. Either way a request reads at most a few hundred rows.
 */
export interface TermFilter {
  taxonomyId: string;
  termIds: string[];
  /** Whether few entries hold the terms. */
  few: boolean;
}

/** Up to this many entries, the list reads them by id; past it, it walks its sort index. */
const fewEntries = 500;

/** What a filter means, remembered until a taxonomy, a term or an entry's terms change (a blog's category page is read all day). */
const resolved = new ReadCache<TermFilter>(1000, ['taxonomies', 'taxonomy_collections', 'terms', 'entry_terms', 'collections']);

export async function termFilter(db: Db, collection: string, filter: string): Promise<TermFilter> {
  return (await resolved.get(db, `${collection}\u0000${filter}`, () => resolve(db, collection, filter)))!;
}

async function resolve(db: Db, collection: string, filter: string): Promise<TermFilter> {
  const [name, slug] = filter.split(':') as [string, string];
  const taxonomy = await store.findTaxonomy(db, name);
  if (!taxonomy) throw termIssue(`No taxonomy ${name}`);
  if (!taxonomy.collections.includes(collection)) throw termIssue(`Taxonomy ${name} does not apply to collection ${collection}`);
  const term = await store.findTermBySlug(db, taxonomy.id, slug);
  if (!term) throw termIssue(`No term ${slug} in ${name}`);
  const termIds = taxonomy.hierarchical === 1 ? await store.termAndDescendants(db, term.id) : [term.id];
  return { taxonomyId: taxonomy.id, termIds, few: (await store.countEntriesWithTerms(db, termIds, fewEntries + 1)) <= fewEntries };
}

function termIssue(message: string) {
  return validationError([{ path: 'term', message }]);
}
