import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from './connection.ts';
import { documentColumns, type SearchDocument, type SearchEngine, type SearchHit, type SearchQuery, type SearchRequest, type SearchTerm } from './search-types.ts';

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
    ${documentColumns},
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

/**
 * Folio's configurations this database has (migration 0008 copies the server's built-in ones), read
 * once per process: a search names its configurations as constants, so that each is matched through
 * the GIN index (a configuration computed in the statement made PostgreSQL test every document).
 */
const knownConfigs = new WeakMap<Db, Promise<Set<string>>>();

function folioConfigs(db: Db): Promise<Set<string>> {
  let configs = knownConfigs.get(db);
  if (!configs) {
    configs = sql<{ name: string }>`select cfgname as name from pg_ts_config where cfgname like 'folio\_%' and pg_ts_config_is_visible(oid)`
      .execute(db.kysely)
      .then(({ rows }) => new Set(rows.map((row) => row.name)));
    knownConfigs.set(db, configs);
  }
  return configs;
}

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
   * One statement: a branch per configuration the documents may use (the site's locales, or the
   * asked locale), each matched through the GIN index with its own query and ranked; the page's
   * documents are read after ranking, so the sort carries keys and scores only.
   */
  async search(db: Db, request: SearchRequest): Promise<SearchHit[]> {
    const known = await folioConfigs(db);
    const locales = request.locale === undefined ? request.siteLocales : [request.locale];
    const wanted = [...locales.map(configName), ...(request.locale === undefined ? ['folio_simple'] : [])];
    const names = [...new Set(wanted.map((name) => (known.has(name) ? name : 'folio_simple')))];
    const branches = names.map((name) => {
      const config = sql`${name}::regconfig`;
      const query = renderTsquery(request.query, config);
      const score = sql`ts_rank(d.vector, ${query})::float8`;
      const filters = [sql`d.config = ${config}`, sql`d.vector @@ ${query}`, sql`d.variant <> ${request.view === 'live' ? 'working' : 'live'}`];
      if (request.collectionIds !== undefined) filters.push(sql`d.collection_id in (${sql.join(request.collectionIds)})`);
      if (request.locale !== undefined) filters.push(sql`d.locale = ${request.locale}`);
      const after = request.after;
      if (after !== undefined) filters.push(sql`(${score} < ${after.score} or (${score} = ${after.score} and d.entry_id > ${after.entryId}))`);
      return sql`select d.entry_id, d.variant, ${score} as score from search_documents d where ${sql.join(filters, sql` and `)}`;
    });
    const { rows } = await sql<SearchHit>`
      select d.entry_id as "entryId", d.collection, d.slug, d.title, page.score, d.title_text as "titleText", d.body_text as "bodyText", d.locale
      from (select * from (${sql.join(branches, sql` union all `)}) matches order by score desc, entry_id limit ${request.limit}) page
      join search_documents d on d.entry_id = page.entry_id and d.variant = page.variant
      order by page.score desc, page.entry_id`.execute(db.kysely);
    return rows;
  },

  /**
   * GIN's fast update queues new entries in a pending list that every search reads through until
   * vacuum merges it; after a rebuild that is the whole index (a search at 10,000 entries: 1.4 ms
   * for the index scan before, 0.6 ms after).
   */
  async compact(db: Db): Promise<void> {
    await sql`select gin_clean_pending_list('search_documents_vector'::regclass)`.execute(db.kysely);
  },

  stemmingLanguage(locale: string): string | undefined {
    const name = configName(locale).slice('folio_'.length);
    return name === 'simple' ? undefined : name;
  },
};
