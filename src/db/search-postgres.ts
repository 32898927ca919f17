import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from './connection.ts';
import { snippetMarks, type SearchDocument, type SearchEngine, type SearchHit, type SearchQuery, type SearchRequest, type SearchTerm } from './search-types.ts';

/**
 * Search on PostgreSQL (docs/decisions/0020): each document has a `tsvector` (title weighted A, body
 * B) made with the text search configuration of its locale's language, under a GIN index. Folio
 * makes its own configuration per built-in one (`folio_english`…, `folio_simple` for other languages)
 * that first folds diacritics with `unaccent` when the extension can be had, so both the vectors and
 * `ts_headline` fold them alike; without it the copies behave as the built-in ones.
 */

/** The built-in text search configurations by ISO 639-1 language code; any other language is `simple`. */
const configByLanguage: Record<string, string> = {
  ar: 'arabic', hy: 'armenian', eu: 'basque', ca: 'catalan', da: 'danish', nl: 'dutch', en: 'english', fi: 'finnish',
  fr: 'french', de: 'german', el: 'greek', hi: 'hindi', hu: 'hungarian', id: 'indonesian', ga: 'irish', it: 'italian',
  lt: 'lithuanian', ne: 'nepali', nb: 'norwegian', nn: 'norwegian', no: 'norwegian', pt: 'portuguese', ro: 'romanian',
  ru: 'russian', sr: 'serbian', es: 'spanish', sv: 'swedish', ta: 'tamil', tr: 'turkish', yi: 'yiddish',
};

/** Folio's configuration for a locale; one the server lacks resolves to `folio_simple` in SQL. */
function configName(locale: string): string {
  return `folio_${configByLanguage[locale.split('-')[0]!.toLowerCase()] ?? 'simple'}`;
}

/** A configuration name as SQL, resolved to Folio's own and to `folio_simple` when the server lacks it. */
function resolvedConfig(name: RawBuilder<unknown>): RawBuilder<unknown> {
  // A lookup rather than a cast, which would fail on a missing name (to_regconfig needs PostgreSQL 16).
  return sql`coalesce((select c.oid::regconfig from pg_ts_config c where c.cfgname = ${name} and pg_ts_config_is_visible(c.oid)), 'folio_simple'::regconfig)`;
}

/**
 * The tables and configurations of migration 0008 on PostgreSQL. `unaccent` is created when the role
 * may (a superuser, or with CREATE on the database: it is a trusted extension); when it may not, the
 * migration still succeeds and search works without folding diacritics (decisions/0020 says how to
 * add it later).
 */
export async function createPostgresSearchTables(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_documents (
    entry_id text not null,
    variant text not null,
    collection_id text not null references collections(id) on delete cascade,
    collection text not null,
    locale text not null,
    slug text not null,
    title text not null,
    title_text text not null,
    body_text text not null,
    config regconfig not null,
    vector tsvector not null,
    primary key (entry_id, variant)
  )`.execute(db);
  await sql`create index search_documents_collection on search_documents (collection_id, entry_id)`.execute(db);
  await sql`create index search_documents_vector on search_documents using gin (vector)`.execute(db);
  const unaccent = await unaccentDictionary(db);
  const { rows: configs } = await sql<{ name: string }>`select cfgname as name from pg_ts_config where cfgnamespace = 'pg_catalog'::regnamespace`.execute(db);
  // Words with letters outside ASCII go through unaccent first, then the configuration's own dictionaries.
  const { rows: mappings } = await sql<{ name: string; alias: string; dictionaries: string }>`
    select c.cfgname as name, t.alias, string_agg(m.mapdict::regdictionary::text, ', ' order by m.mapseqno) as dictionaries
    from pg_ts_config c join pg_ts_config_map m on m.mapcfg = c.oid join ts_token_type('default') t on t.tokid = m.maptokentype
    where c.cfgnamespace = 'pg_catalog'::regnamespace and t.alias in ('word', 'hword', 'hword_part')
    group by c.cfgname, t.alias`.execute(db);
  // One round trip for some hundred statements: every migration of a fresh database (each test's) pays for them.
  const statements = configs.map(({ name }) => `create text search configuration ${identifier(`folio_${name}`)} (copy = pg_catalog.${identifier(name)})`);
  if (unaccent !== undefined) {
    for (const { name, alias, dictionaries } of mappings) {
      statements.push(`alter text search configuration ${identifier(`folio_${name}`)} alter mapping for ${alias} with ${unaccent}, ${dictionaries}`);
    }
  }
  await sql.raw(statements.join(';\n')).execute(db);
}

/** A name from the catalogue as an SQL identifier. */
function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The `unaccent` dictionary, schema-qualified, creating the extension if the role may; undefined when
 * it cannot be had. Tried under a savepoint, so a refusal leaves the migration's transaction usable.
 */
async function unaccentDictionary(db: Kysely<unknown>): Promise<string | undefined> {
  await sql`savepoint folio_unaccent`.execute(db);
  try {
    await sql`create extension if not exists unaccent schema public`.execute(db);
    await sql`release savepoint folio_unaccent`.execute(db);
  } catch {
    await sql`rollback to savepoint folio_unaccent`.execute(db);
  }
  const { rows } = await sql<{ dictionary: string }>`
    select quote_ident(n.nspname) || '.unaccent' as dictionary from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
  return rows[0]?.dictionary;
}

/**
 * A term as a tsquery built by functions, never parsed from text: words go through plainto_tsquery
 * or phraseto_tsquery, which read no operators. A prefix goes through to_tsquery as `word:*`, safe
 * because a term's words hold only letters, digits and combining marks.
 */
function renderTerm(term: SearchTerm, config: RawBuilder<unknown>): RawBuilder<unknown> {
  const head = term.words.slice(0, -1).join(' ');
  const last = term.words.at(-1)!;
  if (!term.prefix) return term.words.length === 1 ? sql`plainto_tsquery(${config}, ${last})` : sql`phraseto_tsquery(${config}, ${term.words.join(' ')})`;
  const prefix = sql`to_tsquery(${config}, ${`${last}:*`})`;
  return head === '' ? prefix : sql`tsquery_phrase(phraseto_tsquery(${config}, ${head}), ${prefix})`;
}

export function renderTsquery(query: SearchQuery, config: RawBuilder<unknown>): RawBuilder<unknown> {
  const anyOf = (terms: readonly SearchTerm[]) => sql`(${sql.join(terms.map((term) => renderTerm(term, config)), sql` || `)})`;
  const required = sql`(${sql.join(query.groups.map(anyOf), sql` && `)})`;
  return query.excluded.length === 0 ? required : sql`(${required} && !!${anyOf(query.excluded)})`;
}

const headlineOptions = `StartSel=${snippetMarks.start}, StopSel=${snippetMarks.end}, MaxWords=24, MinWords=12, MaxFragments=1`;

/**
 * ts_headline's parser takes `<b>` in plain text for markup and drops it, and `&amp;` for an entity:
 * they go in as private-use characters (which stored text never holds, see search/text.ts) and come
 * back after.
 */
const markupCharacters = '<>&';
const standIns = '\uE000\uE001\uE002';

function headline(text: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`ts_headline(page.config, translate(${text}, ${markupCharacters}, ${standIns}), page.query, ${headlineOptions})`;
}

function restoreMarkup(snippet: string): string {
  return snippet.replace(/[\uE000-\uE002]/g, (char) => markupCharacters[char.charCodeAt(0) - 0xe000]!);
}

/** Ranks of the title (weight A) and the body (weight B) alone, weights given as {D, C, B, A}. */
const titleRank = sql`ts_rank('{0,0,0,1}', page.vector, page.query)`;
const bodyRank = sql`ts_rank('{0,0,1,0}', page.vector, page.query)`;

export const postgresSearch: SearchEngine = {
  async insertDocuments(db: Db, documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    const values = documents.map(
      (document) =>
        sql`(${document.entryId}, ${document.variant}, ${document.collectionId}, ${document.collection}, ${document.locale}, ${document.slug}, ${document.title}, ${document.titleText}, ${document.bodyText}, ${configName(document.locale)})`,
    );
    await sql`insert into search_documents (entry_id, variant, collection_id, collection, locale, slug, title, title_text, body_text, config, vector)
      select v.entry_id, v.variant, v.collection_id, v.collection, v.locale, v.slug, v.title, v.title_text, v.body_text, c.config,
        setweight(to_tsvector(c.config, v.title_text), 'A') || setweight(to_tsvector(c.config, v.body_text), 'B')
      from (values ${sql.join(values)}) as v (entry_id, variant, collection_id, collection, locale, slug, title, title_text, body_text, config_name)
      cross join lateral (select ${resolvedConfig(sql`v.config_name`)} as config) c`.execute(db.kysely);
  },

  /**
   * One statement: the query is built once per configuration the documents may use (the site's
   * locales, or the asked locale), each matched through the GIN index; headlines are made for the
   * page's rows only, from the field whose own rank is higher (the body on a tie).
   */
  async search(db: Db, request: SearchRequest): Promise<SearchHit[]> {
    const locales = request.locale === undefined ? request.siteLocales : [request.locale];
    const names = [...new Set([...locales.map(configName), ...(request.locale === undefined ? ['folio_simple'] : [])])];
    const filters = [sql`d.variant <> ${request.view === 'live' ? 'working' : 'live'}`];
    if (request.collectionIds !== undefined) filters.push(sql`d.collection_id in (${sql.join(request.collectionIds)})`);
    if (request.locale !== undefined) filters.push(sql`d.locale = ${request.locale}`);
    const score = sql`ts_rank(d.vector, q.query)::float8`;
    const after = request.after;
    if (after !== undefined) filters.push(sql`(${score} < ${after.score} or (${score} = ${after.score} and d.entry_id > ${after.entryId}))`);
    const { rows } = await sql<SearchHit>`
      select page.entry_id as "entryId", page.collection, page.slug, page.title, page.score,
        case when ${titleRank} > ${bodyRank} then ${headline(sql`page.title_text`)} else ${headline(sql`page.body_text`)} end as snippet
      from (
        select d.entry_id, d.slug, d.title, d.config, d.vector, d.title_text, d.body_text, d.collection, q.query, ${score} as score
        from (select distinct ${resolvedConfig(sql`name`)} as config from unnest(${names}::text[]) as name) configs
        cross join lateral (select ${renderTsquery(request.query, sql`configs.config`)} as query) q
        join search_documents d on d.config = configs.config and d.vector @@ q.query
        where ${sql.join(filters, sql` and `)}
        order by score desc, d.entry_id limit ${request.limit}
      ) page
      order by page.score desc, page.entry_id`.execute(db.kysely);
    return rows.map((row) => ({ ...row, snippet: restoreMarkup(row.snippet) }));
  },
};
