import type { TermFilter } from '../taxonomies/filter.ts';
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/connection.ts';
import { runCompiled } from '../db/compiled.ts';
import { containsInsensitive, limitLiteral, lockRows, startsWith } from '../db/dialect.ts';
import { liveSortValue, type SortKind } from '../db/entry-tables.ts';
import type { EntryStatus } from './value-types.ts';

/**
 * SQL on entry tables (one per collection, docs/decisions/0005). Their names and columns are known
 * only at run time, so Kysely sees them through this loose type; column names come from validated
 * field slugs and the fixed system columns, never from raw input.
 */
type EntryTables = Record<string, Record<string, unknown>>;

export interface EntryRow {
  _id: string;
  _slug: string;
  _locale: string;
  _group: string;
  _status: EntryStatus;
  _version: number;
  _live: string | null;
  _author_id: string | null;
  /** JSON array of byline ids, in credit order; null when the entry credits nobody. */
  _bylines: string | null;
  /** Search and social metadata (JSON, seo/values.ts); null when none is set. */
  _seo: string | null;
  _created_at: string;
  _updated_at: string;
  _published_at: string | null;
  _scheduled_at: string | null;
  _deleted_at: string | null;
  /** Field columns, by field slug. */
  [column: string]: unknown;
}


function entries(db: Db): Kysely<EntryTables> {
  return db.kysely as unknown as Kysely<EntryTables>;
}

export async function insertEntry(db: Db, table: string, row: EntryRow): Promise<void> {
  await entries(db).insertInto(table).values(row).execute();
}

export async function findEntryById(db: Db, table: string, id: string, options: { lock?: boolean } = {}): Promise<EntryRow | undefined> {
  if (options.lock) return (await lockRows(db, entries(db).selectFrom(table).selectAll().where('_id', '=', id)).executeTakeFirst()) as EntryRow | undefined;
  // The read every GET of an entry makes: compiled once per table.
  const rows = await runCompiled(db, `entry.byId:${table}`, (kysely) => (kysely as unknown as Kysely<EntryTables>).selectFrom(table).selectAll().where('_id', '=', ''), [id]);
  return rows[0] as EntryRow | undefined;
}

/**
 * An entry by slug: in the given locale, else the first one created with that slug among those the
 * caller may see (outside the trash unless asked for; only live ones for readers).
 */
export async function findEntryBySlug(
  db: Db,
  table: string,
  slug: string,
  locale: string | undefined,
  options: { lock?: boolean; includeTrashed?: boolean; liveOnly?: boolean } = {},
): Promise<EntryRow | undefined> {
  let query = entries(db).selectFrom(table).selectAll().where('_slug', '=', slug).orderBy('_created_at').orderBy('_id').limit(limitLiteral(1));
  if (locale !== undefined) query = query.where('_locale', '=', locale);
  if (!options.includeTrashed) query = query.where(filters.notTrashed);
  if (options.liveOnly) query = query.where(filters.live);
  return (await (options.lock ? lockRows(db, query) : query).executeTakeFirst()) as EntryRow | undefined;
}

/**
 * Writes the given columns, counts the save and returns the row as written (one statement). With
 * `expectedVersion` the write happens only if no other save came first, and nothing is returned
 * otherwise, so two writers holding the same `_rev` cannot both succeed.
 */
export async function updateEntry(db: Db, table: string, id: string, changes: Record<string, unknown>, expectedVersion?: number): Promise<EntryRow | undefined> {
  let query = entries(db)
    .updateTable(table)
    .set({ ...changes, _version: sql`_version + 1` })
    .where('_id', '=', id);
  if (expectedVersion !== undefined) query = query.where('_version', '=', expectedVersion);
  return (await query.returningAll().executeTakeFirst()) as EntryRow | undefined;
}

/** Locks every row of a translation group, in id order (one order for every writer: no deadlock). */
export async function lockGroup(db: Db, table: string, group: string): Promise<void> {
  await lockRows(db, entries(db).selectFrom(table).select('_id').where('_group', '=', group).orderBy('_id')).execute();
}

export async function deleteEntry(db: Db, table: string, id: string): Promise<void> {
  await entries(db).deleteFrom(table).where('_id', '=', id).execute();
}

/** Which of `slugs` are in use in a collection and locale (trashed entries keep theirs); served by the slug index. */
export async function slugsTaken(db: Db, table: string, slugs: string[], locale: string): Promise<string[]> {
  const rows = await entries(db).selectFrom(table).select('_slug').where('_locale', '=', locale).where('_slug', 'in', slugs).execute();
  return rows.map((row) => row._slug as string);
}

/** Every slug in use in a collection and locale that starts with `base`: a scan, for when many are. */
export async function slugsStartingWith(db: Db, table: string, base: string, locale: string): Promise<string[]> {
  const rows = await entries(db).selectFrom(table).select('_slug').where('_locale', '=', locale).where(startsWith('_slug', base)).execute();
  return rows.map((row) => row._slug as string);
}

export async function slugTaken(db: Db, table: string, slug: string, locale: string, exceptId?: string): Promise<boolean> {
  let query = entries(db).selectFrom(table).select('_id').where('_slug', '=', slug).where('_locale', '=', locale);
  if (exceptId !== undefined) query = query.where('_id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Ids among `ids` that exist (and are not trashed) in a table: for reference checks, one query per target. */
export async function existingIds(db: Db, table: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await entries(db).selectFrom(table).select('_id').where('_id', 'in', ids).where('_deleted_at', 'is', null).execute();
  return new Set(rows.map((row) => row._id as string));
}

/** What a link to an entry needs: where it is (slug, locale) and whether it is live or trashed. */
export type EntryLinkRow = Pick<EntryRow, '_id' | '_slug' | '_locale' | '_status' | '_published_at' | '_deleted_at'>;

/** The link data of those of `ids` that exist in a table, trashed ones too: one statement for any number. */
export async function entryLinks(db: Db, table: string, ids: string[]): Promise<EntryLinkRow[]> {
  if (ids.length === 0) return [];
  return (await entries(db)
    .selectFrom(table)
    .select(['_id', '_slug', '_locale', '_status', '_published_at', '_deleted_at'])
    .where('_id', 'in', ids)
    .execute()) as EntryLinkRow[];
}

/** Those of `ids` that exist in a table, trashed ones too, whole: one statement for any number. */
export async function entriesByIds(db: Db, table: string, ids: string[]): Promise<EntryRow[]> {
  if (ids.length === 0) return [];
  return (await entries(db).selectFrom(table).selectAll().where('_id', 'in', ids).execute()) as EntryRow[];
}

/** Entries other than `exceptId` holding `value` in a unique column, in a locale. */
export async function valueTaken(db: Db, table: string, column: string, value: unknown, locale: string, exceptId?: string): Promise<boolean> {
  let query = entries(db).selectFrom(table).select('_id').where(column, '=', value).where('_locale', '=', locale);
  if (exceptId !== undefined) query = query.where('_id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function groupMembers(db: Db, table: string, group: string): Promise<EntryRow[]> {
  return (await entries(db).selectFrom(table).selectAll().where('_group', '=', group).orderBy('_created_at').orderBy('_id').execute()) as EntryRow[];
}

/** Every entry's value of one column (trashed entries too): what a stricter field definition must still accept. */
export async function columnValues(db: Db, table: string, column: string): Promise<{ slug: string; value: unknown }[]> {
  const rows = await entries(db).selectFrom(table).select(['_slug', sql.ref(column).as('value')]).execute();
  return rows.map((row) => ({ slug: row._slug as string, value: row.value }));
}

/**
 * What a list orders by: a column, or for readers a field's live value (decisions/0007), and whether
 * it can be NULL in the list's rows (a page after a value then also takes the NULLs, which sort last).
 */
export interface SortKey {
  value: RawBuilder<unknown>;
  nullable: boolean;
}

export const sortKeys = {
  column: (column: string, nullable = true): SortKey => ({ value: sql.ref(column), nullable }),
  live: (db: Db, column: string, kind: SortKind): SortKey => ({ value: liveSortValue(db, column, kind), nullable: true }),
};

/** An entry's sort key, with its id: where the next page of a list starts. */
export async function sortKeyOf(db: Db, table: string, key: SortKey, id: string): Promise<[unknown, string] | undefined> {
  const row = await entries(db).selectFrom(table).select(key.value.as('value')).where('_id', '=', id).executeTakeFirst();
  return row ? [row.value ?? null, id] : undefined;
}

export interface ListQuery {
  /** What to order by; NULLs come first ascending and last descending, on both engines. */
  key: SortKey;
  direction: 'asc' | 'desc';
  /** The (value, id) of the last row of the previous page. */
  after?: [unknown, string];
  limit: number;
  filters: Expression<SqlBool>[];
}

/**
 * One page plus one row (to tell whether another page follows), in one statement whatever the page
 * size, served by the `(key, _id)` index.
 */
export async function listEntries(db: Db, table: string, list: ListQuery): Promise<EntryRow[]> {
  const { key, direction } = list;
  let query = entries(db).selectFrom(table).selectAll();
  for (const filter of list.filters) query = query.where(filter);
  if (list.after) query = query.where(afterKey(key, direction, list.after));
  query = query
    .orderBy(key.value, (order) => (direction === 'asc' ? order.asc().nullsFirst() : order.desc().nullsLast()))
    .orderBy('_id', direction)
    .limit(limitLiteral(list.limit + 1));
  return (await query.execute()) as EntryRow[];
}

/**
 * The keyset condition "after (value, id)" in the list's order, NULLs included (first ascending, last
 * descending). Past a value it is a row-value comparison, which both engines read as a range of the
 * `(key, _id)` index; spelled `key > v or (key = v and _id > id)`, SQLite scanned the index from its
 * start with the values bound (decisions/0065). Descending, a nullable key's NULLs still follow.
 */
function afterKey({ value: ref, nullable }: SortKey, direction: 'asc' | 'desc', [value, id]: [unknown, string]): Expression<SqlBool> {
  if (direction === 'asc') {
    return value === null ? sql<SqlBool>`((${ref} is null and _id > ${id}) or ${ref} is not null)` : sql<SqlBool>`((${ref}, _id) > (${value}, ${id}))`;
  }
  if (value === null) return sql<SqlBool>`(${ref} is null and _id < ${id})`;
  return nullable ? sql<SqlBool>`((${ref}, _id) < (${value}, ${id}) or ${ref} is null)` : sql<SqlBool>`((${ref}, _id) < (${value}, ${id}))`;
}

export const filters = {
  notTrashed: sql<SqlBool>`_deleted_at is null`,
  trashed: sql<SqlBool>`_deleted_at is not null`,
  live: sql<SqlBool>`_published_at is not null`,
  status: (status: EntryStatus) => sql<SqlBool>`_status = ${status}`,
  locale: (locale: string) => sql<SqlBool>`_locale = ${locale}`,
  author: (userId: string) => sql<SqlBool>`_author_id = ${userId}`,
  /**
   * Entries with one of the terms (src/taxonomies/filter.ts). Few: their rows are read by id and
   * sorted. Many: the list walks its sort index and checks each entry in `entry_terms_entry`
   * (entry, taxonomy, term), from the index alone. For several terms (a term and its descendants) the
   * term is compared as an expression, so the engine reads the entry's few terms of the taxonomy once
   * instead of seeking every term of the list for every entry.
   */
  hasTerm: (table: string, filter: TermFilter): RawBuilder<SqlBool> => {
    if (filter.few) return sql<SqlBool>`_id in (select entry_id from entry_terms where term_id in (${sql.join(filter.termIds)}))`;
    const term = filter.termIds.length === 1 ? sql`entry_terms.term_id = ${filter.termIds[0]}` : sql`(entry_terms.term_id || '') in (${sql.join(filter.termIds)})`;
    return sql<SqlBool>`exists (select 1 from entry_terms where entry_terms.entry_id = ${sql.ref(`${table}._id`)} and entry_terms.taxonomy_id = ${filter.taxonomyId} and ${term})`;
  },
};

/**
 * Entries in id order after `after`, `limit` at a time, locked when asked: how the search index walks
 * a collection (its rebuild locks each batch so no save lands between reading a row and indexing it).
 */
export async function entriesAfter(db: Db, table: string, after: string | undefined, limit: number, options: { lock?: boolean } = {}): Promise<EntryRow[]> {
  let query = entries(db).selectFrom(table).selectAll().orderBy('_id').limit(limitLiteral(limit));
  if (after !== undefined) query = query.where('_id', '>', after);
  return (await (options.lock ? lockRows(db, query) : query).execute()) as EntryRow[];
}

/**
 * A collection's entries (drafts and the trash too) and, per column, how many hold a value: what
 * deleting the collection or a field destroys. One statement, one pass over the table.
 */
export async function countValues(db: Db, table: string, columns: readonly string[]): Promise<{ entries: number; values: number[] }> {
  const counts = columns.map((column, index) => sql`count(${sql.ref(column)}) as ${sql.ref(`v${index}`)}`);
  const row = (await sql<Record<string, number | string>>`select ${sql.join([sql`count(*) as entries`, ...counts])} from ${sql.table(table)}`.execute(db.kysely)).rows[0]!;
  // PostgreSQL's count is a bigint, which pg hands over as a string.
  return { entries: Number(row.entries), values: columns.map((_, index) => Number(row[`v${index}`])) };
}

/** A collection's entries counted by status, the trash apart: one statement, one pass over the table. */
export async function countByState(db: Db, table: string): Promise<Record<EntryStatus | 'trash', number>> {
  const rows = await sql<{ state: EntryStatus | 'trash'; total: number | string }>`
    select case when _deleted_at is null then _status else 'trash' end as state, count(*) as total
    from ${sql.table(table)} group by 1`.execute(db.kysely);
  const counts = { draft: 0, published: 0, scheduled: 0, trash: 0 };
  // PostgreSQL's count is a bigint, which pg hands over as a string.
  for (const row of rows.rows) counts[row.state] = Number(row.total);
  return counts;
}

/** A user who created entries, as the list's author filter offers them: never their email. */
export interface AuthorRow {
  id: string;
  name: string;
}

/**
 * The users who created entries of a table outside the trash, whose name contains `search`, in
 * (name, id) order after `after`: one page plus one row. The entries are read once, as a set of
 * author ids (there is no index on `_author_id`: a scan, as for the list's own author filter).
 */
export async function authorsOf(db: Db, table: string, filter: { search?: string; after?: [string, string]; limit: number }): Promise<AuthorRow[]> {
  let query = db.kysely
    .selectFrom('users')
    .select(['id', 'name'])
    .where(sql<SqlBool>`id in (select _author_id from ${sql.table(table)} where _deleted_at is null)`)
    .orderBy('name')
    .orderBy('id')
    .limit(limitLiteral(filter.limit + 1));
  if (filter.search !== undefined) query = query.where(containsInsensitive('name', filter.search));
  if (filter.after !== undefined) {
    const [name, id] = filter.after;
    query = query.where(sql<SqlBool>`(name > ${name} or (name = ${name} and id > ${id}))`);
  }
  return query.execute();
}

/** A user's name, where the next page of authors starts (a cursor names the user, not the name). */
export async function userName(db: Db, id: string): Promise<string | undefined> {
  return (await db.kysely.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst())?.name;
}
