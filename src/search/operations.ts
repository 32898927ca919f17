import type { z } from 'zod';
import { contentRead } from '../content/access.ts';
import { countByState } from '../content/store.ts';
import { viewOf } from '../content/lookup.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { validationError } from '../core/errors.ts';
import { access, defineOperation } from '../core/operation.ts';
import type { StreamedRun } from '../core/streamed-run.ts';
import { roles } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, refreshPlannerStatistics } from '../db/dialect.ts';
import { ReadCache } from '../db/read-cache.ts';
import { searchEngine } from '../db/search-engine.ts';
import type { SearchHit, SearchQuery } from '../db/search-types.ts';
import { findLockedCollection } from '../schema/lookup.ts';
import * as schemaStore from '../schema/store.ts';
import { publicReadEnabled, readSettings } from '../settings/read.ts';
import { isSearchable } from './documents.ts';
import { rebuildBatch } from './indexer.ts';
import { parseSearchQuery } from './query.ts';
import { makeSnippet, SnippetMaker } from './snippets.ts';
import { loadStemmer } from './stemmers.ts';
import type { RebuildBody, RebuildProgress, RebuildResult, SearchQueryParams, SearchResult, SuggestQueryParams } from './schemas.ts';
import * as store from './store.ts';
import { snippetHtml, suggestionPrefix } from './text.ts';

/** Searching published content: `content:read`, or anyone while `publicRead` is on; working values need Contributor (DECISIONS §2). */
const searchRead = access.scope<{ status?: string }>('content:read', {
  publicWhen: publicReadEnabled,
  inputRole: (input) => (input.status === 'draft' ? roles.contributor : undefined),
});

/** Rebuilding the index and reading its counts are the administrator's (decisions/0020). */
const searchAdmin = access.scope('admin');

/**
 * The ids of the named collections; an unknown one, or one without `search`, is a 400 naming
 * `collections` (a search box's mistyped filter is bad input, not a missing page).
 */
async function searchableCollections(db: Db, slugs: readonly string[]): Promise<schemaStore.LoadedCollection[]> {
  const collections = await Promise.all(slugs.map((slug) => schemaStore.loadCollection(db, slug)));
  const issues = slugs.flatMap((slug, index) => {
    const collection = collections[index];
    if (!collection) return [{ path: 'collections', message: `No collection ${slug}` }];
    return isSearchable(collection) ? [] : [{ path: 'collections', message: `Collection ${slug} does not support search (add search to its supports)` }];
  });
  if (issues.length > 0) throw validationError(issues);
  return collections as schemaStore.LoadedCollection[];
}

/** The last result of a page, as the cursor names it: its score and entry id (neither a field value). */
function decodeSearchCursor(cursor: string): { score: number; entryId: string } {
  const [score, entryId] = decodeCursor(cursor, 2);
  if (typeof score !== 'number' || !Number.isFinite(score) || typeof entryId !== 'string') throw validationError([{ path: 'cursor', message: 'Malformed cursor' }]);
  return { score, entryId };
}

type SearchAnswer = { results: SearchResult[]; nextCursor?: string };

/**
 * Answers as of the index's last change (read-cache.ts: SQLite's change stamp; PostgreSQL reads each
 * time). A site's visitors ask its popular queries again and again between writes, and an answer
 * costs a millisecond of the process's one thread, most of it ranking and snippets. Every index
 * write goes through `search_documents`; a collection deleted, a field's searchability or the site's
 * locales change what the same query means. Most queries are asked once: an answer is kept from the
 * second time it is asked (decisions/0065), since keeping every one cost the garbage collector about
 * 100 µs per search under a different query each time.
 */
const answers = new ReadCache<SearchAnswer>(500, ['search_documents', 'collections', 'fields', 'settings'], { repeatsOnly: true });

export const searchContent = defineOperation({
  name: 'search.query',
  access: searchRead,
  async run(ctx, input: z.output<typeof SearchQueryParams>): Promise<SearchAnswer> {
    const collections = input.collections === undefined ? undefined : await searchableCollections(ctx.db, input.collections);
    const after = input.cursor === undefined ? undefined : decodeSearchCursor(input.cursor);
    const view = viewOf(ctx) === 'editor' && input.status === 'draft' ? 'working' : 'live';
    const collectionIds = collections?.map((collection) => collection.id);
    const key = JSON.stringify([input.q, view, collectionIds, input.locale, input.cursor, input.limit]);
    return (await answers.get(ctx.db, key, async () => {
      const query = parseSearchQuery(input.q);
      // Only exclusions, or nothing but punctuation: nothing to look for.
      if (query.groups.length === 0) return { results: [] };
      const { locales } = await readSettings(ctx.db);
      const hits = await searchEngine(ctx.db).search(ctx.db, { query, view, collectionIds, locale: input.locale, siteLocales: locales, after, limit: input.limit + 1 });
      const page = hits.slice(0, input.limit);
      const snippets = await snippetsOf(ctx.db, query, page);
      const results = page.map((hit, index) => ({ collection: hit.collection, id: hit.entryId, slug: hit.slug, title: hit.title, snippet: snippetHtml(snippets[index]!), score: hit.score }));
      const last = page.at(-1);
      return hits.length > input.limit && last ? { results, nextCursor: encodeCursor([last.score, last.entryId]) } : { results };
    }))!;
  },
});

/**
 * Each hit's snippet, made with the stemmer its index used: one snippet maker per language on the
 * page, loaded before the snippets are made, so the page's twenty snippets are made in one go
 * rather than each in a promise of its own.
 */
async function snippetsOf(db: Db, query: SearchQuery, hits: readonly SearchHit[]): Promise<string[]> {
  const engine = searchEngine(db);
  const languages = hits.map((hit) => engine.stemmingLanguage(hit.locale));
  const makers = new Map<string | undefined, SnippetMaker>();
  for (const language of new Set(languages)) makers.set(language, new SnippetMaker(query, await loadStemmer(language), language));
  return hits.map((hit, index) => makeSnippet(makers.get(languages[index])!, hit.titleText, hit.bodyText));
}

export const suggestTitles = defineOperation({
  name: 'search.suggest',
  access: contentRead,
  async run(ctx, input: z.output<typeof SuggestQueryParams>): Promise<{ items: store.Suggestion[] }> {
    const prefix = suggestionPrefix(input.q);
    if (prefix === '') return { items: [] };
    // A title may have two keys that start alike ("new new york"): a few more rows cover those repeats.
    const rows = await store.suggestTitles(ctx.db, prefix, input.limit * 2);
    const seen = new Set<string>();
    return { items: rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, input.limit) };
  },
});

/**
 * Rebuilds the index of the named collections (default: every one with `search`), a batch of
 * entries per transaction, so searches and writes go on meanwhile and each batch is exact when it
 * commits. A full rebuild first drops documents of collections without `search`. Asked to stream, it
 * answers a progress line per batch, then the result; a client that leaves does not stop it.
 */
export const rebuildIndex = defineOperation({
  name: 'search.rebuild',
  access: searchAdmin,
  async run(ctx, input: z.output<typeof RebuildBody>): Promise<StreamedRun<RebuildProgress, RebuildResult>> {
    // Named collections are checked before anything is answered, so a bad name is a 400, not a stream's last line.
    const named = input.collections === undefined ? undefined : await searchableCollections(ctx.db, input.collections);
    return { stream: input.stream, run: (onProgress) => rebuild(ctx.db, named, onProgress) };
  },
});

async function rebuild(db: Db, named: schemaStore.LoadedCollection[] | undefined, onProgress: (line: RebuildProgress) => void): Promise<RebuildResult> {
  // Statistics gathered while the index was small would slow every batch (decisions/0031).
  await refreshPlannerStatistics(db);
  let collections = named;
  if (collections === undefined) {
    const all = (await schemaStore.listCollectionRows(db)).map(schemaStore.toCollection).filter(isSearchable);
    collections = (await Promise.all(all.map((collection) => schemaStore.loadCollection(db, collection.slug)))).filter((collection) => collection !== undefined);
    await store.deleteDocumentsOutside(db, collections.map((collection) => collection.id));
  }
  const items: store.CollectionCounts[] = [];
  for (const collection of collections) items.push(await rebuildCollection(db, collection, onProgress));
  await searchEngine(db).compact(db);
  await refreshPlannerStatistics(db);
  return { type: 'result', items };
}

/** One collection, batch by batch; one deleted or stripped of `search` meanwhile ends early. */
async function rebuildCollection(db: Db, { slug, tableName }: schemaStore.LoadedCollection, onProgress: (line: RebuildProgress) => void): Promise<store.CollectionCounts> {
  const counts = { collection: slug, entries: 0, documents: 0 };
  const total = Object.values(await countByState(db, tableName)).reduce((sum, count) => sum + count, 0);
  let after: string | undefined;
  do {
    const batch = await inTransaction(db, async (tx) => {
      // Each batch holds the collection against schema changes, as every content write does.
      const collection = await findLockedCollection(tx, slug, 'share');
      return collection && isSearchable(collection) ? rebuildBatch(tx, collection, after) : undefined;
    });
    if (!batch) break;
    counts.entries += batch.entries;
    counts.documents += batch.documents;
    after = batch.last;
    // Entries may be added meanwhile: the total grows with them rather than being overtaken.
    onProgress({ type: 'progress', ...counts, total: Math.max(total, counts.entries) });
  } while (after !== undefined);
  return counts;
}

export const indexStats = defineOperation({
  name: 'search.stats',
  access: searchAdmin,
  async run(ctx): Promise<{ items: store.CollectionCounts[] }> {
    return { items: await store.countDocuments(ctx.db) };
  },
});
