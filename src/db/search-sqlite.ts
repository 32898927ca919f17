import { sql, type Kysely, type RawBuilder } from 'kysely';
import { runQuery } from './compiled.ts';
import type { Db } from './connection.ts';
import { limitLiteral } from './dialect.ts';
import { documentColumns, type SearchDocument, type SearchEngine, type SearchHit, type SearchQuery, type SearchRequest, type SearchTerm } from './search-types.ts';

/**
 * Search on SQLite with FTS5 (docs/decisions/0020). `search_documents` holds the text; two FTS5
 * tables index it as external content, kept exact by triggers in the writer's transaction: one with
 * the Porter stemmer for English documents, one without for every other language (stemming French
 * with an English stemmer would merge words that differ). Both fold case and diacritics.
 */

const stemmedTable = 'search_fts_stemmed';
const plainTable = 'search_fts_plain';

/**
 * How many pages of the index one step of merging after a rebuild writes. Each step is a statement
 * with its own commit, which in a busy server cost about 200 ms whatever its size (the write-ahead
 * log's checkpoint after a rebuild's writes): steps of 200 pages took 12 s at 30,000 entries, steps
 * of 2,000 took 1.3 s, each still well under a second of write lock.
 */
const mergePages = 2000;

/** Title matches weigh ten times body matches in bm25. */
const titleWeight = 10;

/** Documents in English (`en`, `en-GB`…) go through the Porter stemmer. */
function isEnglish(locale: string): boolean {
  return locale === 'en' || locale.startsWith('en-');
}

/** The tables and triggers of migration 0008 on SQLite. */
export async function createSqliteSearchTables(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_documents (
    id integer primary key,
    ${documentColumns},
    stemmed integer not null
  )`.execute(db);
  await sql`create unique index search_documents_entry on search_documents (entry_id, variant)`.execute(db);
  await sql`create index search_documents_collection on search_documents (collection_id, entry_id)`.execute(db);
  for (const [table, tokenizer, stemmed] of [
    [stemmedTable, 'porter unicode61 remove_diacritics 2', 1],
    [plainTable, 'unicode61 remove_diacritics 2', 0],
  ] as const) {
    await sql`create virtual table ${sql.table(table)} using fts5(title_text, body_text, content='search_documents', content_rowid='id', tokenize=${sql.lit(tokenizer)})`.execute(db);
    // Documents are inserted and deleted, never updated (an entry's documents are replaced whole).
    await sql`create trigger ${sql.id(`${table}_insert`)} after insert on search_documents when new.stemmed = ${sql.lit(stemmed)} begin
      insert into ${sql.table(table)} (rowid, title_text, body_text) values (new.id, new.title_text, new.body_text);
    end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_delete`)} after delete on search_documents when old.stemmed = ${sql.lit(stemmed)} begin
      insert into ${sql.table(table)} (${sql.table(table)}, rowid, title_text, body_text) values ('delete', old.id, old.title_text, old.body_text);
    end`.execute(db);
  }
}

/**
 * The columns a search filters its matches by, beside the document's id (migration 0021). Each match
 * is looked up in `search_documents` by id; there each row carries the whole text (2 KB and more), so
 * a page of the table holds one or two and every lookup lands on a page of its own: 70 matches cost
 * 4 µs each. In this index they are packed a hundred to a page, and the lookups took a third of that
 * (a query of two middling words at 10,000 entries: 450 µs, then 270 µs). SQLite's planner prefers
 * the primary key for `id = ?`, hence INDEXED BY where it is used.
 */
const filterIndex = 'search_documents_filter';

export async function createSqliteSearchFilterIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create index ${sql.id(filterIndex)} on search_documents (id, entry_id, variant, collection_id, locale)`.execute(db);
}

/** A term in FTS5's syntax: its words as one quoted phrase (quotes doubled), `*` after it for a prefix. */
function renderTerm(term: SearchTerm): string {
  return `"${term.words.join(' ').replaceAll('"', '""')}"${term.prefix ? '*' : ''}`;
}

/** The whole query in FTS5's syntax, every part parenthesised so precedence never matters. */
export function renderFts5Query(query: SearchQuery): string {
  const anyOf = (terms: readonly SearchTerm[]) => `(${terms.map(renderTerm).join(' OR ')})`;
  const required = query.groups.map(anyOf).join(' AND ');
  return query.excluded.length === 0 ? required : `(${required}) NOT ${anyOf(query.excluded)}`;
}

function matchesIn(table: string, match: string, request: SearchRequest): RawBuilder<unknown> {
  const fts = sql.table(table);
  const filters = [sql`d.variant <> ${request.view === 'live' ? 'working' : 'live'}`];
  if (request.collectionIds !== undefined) filters.push(sql`d.collection_id in (${sql.join(request.collectionIds)})`);
  if (request.locale !== undefined) filters.push(sql`d.locale = ${request.locale}`);
  // CROSS JOIN fixes the order: the full-text matches first. Otherwise statistics that know nothing of
  // the documents can make SQLite walk every document of a collection and probe the index with each.
  return sql`select d.id, d.entry_id, -bm25(${fts}, ${sql.lit(titleWeight)}, 1.0) as score
    from ${fts} cross join search_documents d indexed by ${sql.id(filterIndex)} on d.id = ${fts}.rowid
    where ${fts} match ${match} and ${sql.join(filters, sql` and `)}`;
}

export const sqliteSearch: SearchEngine = {
  async insertDocuments(db: Db, documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    const rows = documents.map((document) => ({
      entry_id: document.entryId,
      variant: document.variant,
      collection_id: document.collectionId,
      collection: document.collection,
      locale: document.locale,
      slug: document.slug,
      title: document.title,
      title_text: document.titleText,
      body_text: document.bodyText,
      stemmed: isEnglish(document.locale) ? 1 : 0,
    }));
    await (db.kysely as unknown as Kysely<{ search_documents: (typeof rows)[number] }>).insertInto('search_documents').values(rows).execute();
  },

  /**
   * Matches from each FTS5 table the request may touch, ranked together by bm25 into the page; the
   * page's documents are read after ranking, so the sort carries ids and scores only.
   */
  async search(db: Db, request: SearchRequest): Promise<SearchHit[]> {
    const match = renderFts5Query(request.query);
    const tables = request.locale === undefined ? [stemmedTable, plainTable] : [isEnglish(request.locale) ? stemmedTable : plainTable];
    const matches = sql.join(
      tables.map((table) => matchesIn(table, match, request)),
      sql` union all `,
    );
    const after = request.after;
    const afterCursor = after === undefined ? sql`1` : sql`(score < ${after.score} or (score = ${after.score} and entry_id > ${after.entryId}))`;
    // The limit is written into the statement (an integer the route validated): bound as a parameter,
    // it made SQLite prepare the statement again on every run (a two-word query at 10,000 entries: 280
    // µs, then 210 µs). Read at once when nothing else holds the connection (runQuery).
    const query = sql<SearchHit>`
      select page.entry_id as "entryId", d.collection, d.slug, d.title, page.score, d.title_text as "titleText", d.body_text as "bodyText", d.locale
      from (select * from (${matches}) where ${afterCursor} order by score desc, entry_id limit ${limitLiteral(request.limit)}) page
      cross join search_documents d on d.id = page.id
      order by page.score desc, page.entry_id`.compile(db.kysely);
    return runQuery(db, query);
  },

  /**
   * Each batch's commit leaves FTS5 a segment more, which automatic merging combines only in part:
   * at 10,000 entries a search read 0.3 ms before merging them all, 0.17 ms after. `optimize` would
   * merge in one statement, holding the process (SQLite runs in it) and the write lock for seconds at
   * 100,000 entries; the same merge is done in steps of `mergePages` pages, letting requests in between.
   */
  async compact(db: Db): Promise<void> {
    const totalChanges = async () => (await sql<{ n: number }>`select total_changes() as n`.execute(db.kysely)).rows[0]!.n;
    for (const table of [stemmedTable, plainTable]) {
      const fts = sql.table(table);
      // A negative count starts merging every segment into one; positive ones go on until FTS5 has nothing left to merge.
      await sql`insert into ${fts} (${fts}, rank) values ('merge', ${-mergePages})`.execute(db.kysely);
      for (;;) {
        const before = await totalChanges();
        await sql`insert into ${fts} (${fts}, rank) values ('merge', ${mergePages})`.execute(db.kysely);
        if ((await totalChanges()) - before < 2) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  },

  stemmingLanguage(locale: string): string | undefined {
    return isEnglish(locale) ? 'english' : undefined;
  },
};
