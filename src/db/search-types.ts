import { sql } from 'kysely';
import type { Db } from './connection.ts';

/**
 * The full-text index's interface and its shapes, implemented once per engine (search-engine.ts
 * picks one).
 */

/** Which version of an entry a document holds; `both` when the live values are the working ones. */
export type SearchVariant = 'live' | 'working' | 'both';

export interface SearchDocument {
  entryId: string;
  variant: SearchVariant;
  collectionId: string;
  /** The collection's slug (it never changes): results need no join to `collections`. */
  collection: string;
  locale: string;
  slug: string;
  title: string;
  /** The indexed title: weighs more than the body. */
  titleText: string;
  bodyText: string;
}

/** A document's columns in `search_documents`, the same on both engines (each adds those of its index). */
export const documentColumns = sql`entry_id text not null,
    variant text not null,
    collection_id text not null references collections(id) on delete cascade,
    collection text not null,
    locale text not null,
    slug text not null,
    title text not null,
    title_text text not null,
    body_text text not null`;

/**
 * One term of a query: words that must appear in this order (a single word is a phrase of one), the
 * last one as a prefix when `prefix`. Words hold only letters, digits and combining marks, so no term
 * can carry an engine's own syntax; each engine still quotes them.
 */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/** Every group must match; a group matches when any of its terms does (`OR`); no excluded term may. */
export interface SearchQuery {
  groups: SearchTerm[][];
  excluded: SearchTerm[];
}

export interface SearchRequest {
  query: SearchQuery;
  /** `live` searches what readers see, `working` what editors see. */
  view: 'live' | 'working';
  /** Only these collections (ids); undefined: every collection. */
  collectionIds?: string[];
  locale?: string;
  /** The site's locales, which tell PostgreSQL which text search configurations documents use. */
  siteLocales: readonly string[];
  /** The last result of the previous page: the next page starts after it in (score desc, entry id) order. */
  after?: { score: number; entryId: string };
  /** How many rows to return (a page plus one, to tell whether another follows). */
  limit: number;
}

export interface SearchHit {
  entryId: string;
  collection: string;
  slug: string;
  title: string;
  /** Higher is better; comparable within one query. */
  score: number;
  /** The document's text and language, for its snippet (src/search/snippets.ts). */
  titleText: string;
  bodyText: string;
  locale: string;
}

export interface SearchEngine {
  /** Adds documents; their entries hold none yet (the caller deleted them). */
  insertDocuments(db: Db, documents: readonly SearchDocument[]): Promise<void>;
  search(db: Db, request: SearchRequest): Promise<SearchHit[]>;
  /** After a rebuild: merges what the batches left in pieces, so searches read the index in one piece. */
  compact(db: Db): Promise<void>;
  /** The stemmer (src/search/stemmers.ts) the index applies to documents in this locale; undefined when none. */
  stemmingLanguage(locale: string): string | undefined;
}
