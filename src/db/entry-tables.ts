import { sql, type RawBuilder, type SchemaModule } from 'kysely';
import type { Db } from './connection.ts';
import { limitLiteral } from './dialect.ts';

/**
 * The DDL of entry tables: one table per collection, one column per field (docs/decisions/0005).
 * System columns start with `_`, which field slugs (`^[a-z][a-z0-9_]*$`) never do, so a field can be
 * named anything the slug rules allow. Table and index names derive from ULIDs, not slugs, so they
 * stay within PostgreSQL's 63-byte identifier limit.
 */

export type ColumnKind = 'text' | 'real' | 'integer';

/** How a sortable field's value compares: its column's kind, with booleans apart (JSON `true` is not `1` on PostgreSQL). */
export type SortKind = ColumnKind | 'boolean';

export function entryTableName(collectionId: string): string {
  return `ec_${collectionId.toLowerCase()}`;
}

function sortIndexName(fieldId: string): string {
  return `ix_${fieldId.toLowerCase()}`;
}

function liveSortIndexName(fieldId: string): string {
  return `lx_${fieldId.toLowerCase()}`;
}

function uniqueIndexName(fieldId: string): string {
  return `ux_${fieldId.toLowerCase()}`;
}

function columnType(db: Db, kind: ColumnKind) {
  if (kind === 'text') return 'text' as const;
  if (kind === 'integer') return db.dialect === 'postgres' ? ('bigint' as const) : ('integer' as const);
  return db.dialect === 'postgres' ? ('double precision' as const) : ('real' as const);
}

/** The system columns every entry has, and the indexes behind the system sort orders and lookups. */
export async function createEntryTable(db: Db, table: string): Promise<void> {
  await db.kysely.schema
    .createTable(table)
    .addColumn('_id', 'text', (column) => column.primaryKey())
    .addColumn('_slug', 'text', (column) => column.notNull())
    .addColumn('_locale', 'text', (column) => column.notNull())
    // The id of the translation group's source entry (the entry's own id when it has no source).
    .addColumn('_group', 'text', (column) => column.notNull())
    .addColumn('_status', 'text', (column) => column.notNull())
    // Counts saves; the `_rev` token is made from it.
    .addColumn('_version', 'integer', (column) => column.notNull())
    // Field values of the live version while a newer draft is staged in the field columns (JSON).
    .addColumn('_live', 'text')
    .addColumn('_author_id', 'text')
    // Ordered byline credits, a JSON array of byline ids; the first is the primary byline.
    .addColumn('_bylines', 'text')
    // Search and social metadata (JSON) on collections that support `seo` (decisions/0059).
    .addColumn('_seo', 'text')
    .addColumn('_created_at', 'text', (column) => column.notNull())
    .addColumn('_updated_at', 'text', (column) => column.notNull())
    .addColumn('_published_at', 'text')
    .addColumn('_scheduled_at', 'text')
    .addColumn('_deleted_at', 'text')
    .execute();
  const index = (name: string, columns: string[], unique = false) => {
    const builder = db.kysely.schema.createIndex(`${table}_${name}`).on(table).columns(columns);
    return (unique ? builder.unique() : builder).execute();
  };
  await index('slug', ['_slug', '_locale'], true);
  await index('group', ['_group']);
  for (const column of ['_created_at', '_updated_at', '_published_at', '_scheduled_at']) {
    await createSortIndex(db, `${table}${column}`, table, column);
  }
  // Partial, so it serves the trash list and is never what a planner picks for lists outside the trash.
  await db.kysely.schema.createIndex(`${table}_trash`).on(table).columns(['_deleted_at', '_id']).where(sql.ref('_deleted_at'), 'is not', null).execute();
}

export async function dropEntryTable(db: Db, table: string): Promise<void> {
  await db.kysely.schema.dropTable(table).ifExists().execute();
}

/**
 * Adding a nullable column is a catalogue change on both engines: no existing row is rewritten. On
 * PostgreSQL a worn table is rebuilt first (see `columnNumberBudget`).
 */
export async function addFieldColumn(db: Db, table: string, column: string, kind: ColumnKind): Promise<void> {
  if (db.dialect === 'postgres' && (await columnNumbersUsed(db, table)) >= columnNumberBudget) await rebuildEntryTable(db, table);
  await db.kysely.schema.alterTable(table).addColumn(column, columnType(db, kind)).execute();
}

/**
 * PostgreSQL never reuses the number of a dropped column and refuses a table past 1,600 of them, so
 * a field added and deleted over and over would end with every new column refused. A table whose
 * used numbers reach this budget is rebuilt without its dropped columns before a column is added.
 * Far above what live columns need (at most 300 fields and 14 system columns), so a rebuild comes
 * at most once per several hundred deleted fields, and far enough below 1,600 never to come late.
 * SQLite rewrites the table on every DROP COLUMN and keeps nothing of the dropped one.
 */
const columnNumberBudget = 1000;

/** Live and dropped columns of a PostgreSQL table: the numbers counted against its 1,600. */
async function columnNumbersUsed(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ used: number }>`select count(*)::int as used from pg_attribute where attrelid = ${table}::regclass and attnum > 0`.execute(db.kysely);
  return rows[0]!.used;
}

/**
 * Copies a PostgreSQL table into a fresh one with only its live columns, in the schema change's
 * transaction (so under the collection's lock, and undone with it). `LIKE` copies the columns, their
 * types and NOT NULL; the constraints and indexes are then made again from the catalogue's own
 * definitions, under their old names, once the copy has the old table's name.
 */
async function rebuildEntryTable(db: Db, table: string): Promise<void> {
  const fresh = `${table}_rebuild`;
  const { rows: constraints } = await sql<{ name: string; definition: string }>`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = ${table}::regclass and contype <> 'n'`.execute(db.kysely);
  const { rows: indexes } = await sql<{ definition: string }>`
    select pg_get_indexdef(indexrelid) as definition from pg_index
    where indrelid = ${table}::regclass and indexrelid not in (select conindid from pg_constraint where conrelid = ${table}::regclass)`.execute(db.kysely);
  await sql`create table ${sql.table(fresh)} (like ${sql.table(table)})`.execute(db.kysely);
  await sql`insert into ${sql.table(fresh)} select * from ${sql.table(table)}`.execute(db.kysely);
  await db.kysely.schema.dropTable(table).execute();
  await db.kysely.schema.alterTable(fresh).renameTo(table).execute();
  for (const { name, definition } of constraints) await sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} ${sql.raw(definition)}`.execute(db.kysely);
  for (const { definition } of indexes) await sql.raw(definition).execute(db.kysely);
  // The copy has no statistics yet; the lists' plans should not wait for autovacuum to gather them.
  await sql`analyze ${sql.table(table)}`.execute(db.kysely);
}

/** Dropping a column drops its indexes first (SQLite refuses to drop an indexed column). */
export async function dropFieldColumn(db: Db, table: string, column: string, fieldId: string): Promise<void> {
  await setFieldIndexes(db, table, column, fieldId, { sort: undefined, unique: false });
  await db.kysely.schema.alterTable(table).dropColumn(column).execute();
}

/**
 * An index that serves `ORDER BY column, _id` both ways with NULLs first when ascending, the order
 * lists use on both engines, over the entries outside the trash. SQLite already puts NULLs first;
 * PostgreSQL is told to.
 */
async function createSortIndex(db: Db, name: string, table: string, column: string): Promise<void> {
  const builder = db.kysely.schema.createIndex(name).on(table);
  const withColumns = db.dialect === 'postgres' ? builder.expression(sql`${sql.ref(column)} asc nulls first, "_id"`) : builder.columns([column, '_id']);
  // Partial, like the lists it serves (they leave out the trash). Without statistics (a fresh
  // table, before autovacuum's first ANALYZE) PostgreSQL guesses that `_deleted_at IS NULL` keeps
  // 0.5% of rows and would rather sort a full scan; an index with that very condition wins anyway.
  await withColumns.where(sql.ref('_deleted_at'), 'is', null).execute();
}

/**
 * The value a reader's list sorts a field by (docs/decisions/0007): the live value kept in `_live`
 * while a draft is staged, else the column. Literals only, no parameters: the very same text is an
 * index definition and the queries' sort key, and each engine uses an expression index only for a
 * query expression that matches it exactly.
 */
export function liveSortValue(db: Pick<Db, 'dialect'>, column: string, kind: SortKind): RawBuilder<unknown> {
  const live =
    db.dialect === 'postgres'
      ? postgresJsonValue(sql`("_live"::jsonb ->> ${sql.lit(column)})`, kind)
      : // SQLite's json_extract gives JSON numbers, strings and booleans (1/0) the column's own types.
        sql`json_extract("_live", ${sql.lit(`$.${column}`)})`;
  return sql`(case when "_live" is null then ${sql.ref(column)} else ${live} end)`;
}

function postgresJsonValue(text: RawBuilder<unknown>, kind: SortKind): RawBuilder<unknown> {
  if (kind === 'real') return sql`${text}::double precision`;
  if (kind === 'integer') return sql`${text}::bigint`;
  if (kind === 'boolean') return sql`${text}::boolean::integer`;
  return text;
}

/**
 * The index behind a reader's list sorted by a field: `(live value, _id)` over the live entries
 * outside the trash, the rows readers list (and the only ones it costs a write for).
 */
export async function createLiveSortIndex(db: Pick<Db, 'dialect'> & { kysely: { schema: SchemaModule } }, table: string, column: string, fieldId: string, kind: SortKind): Promise<void> {
  const value = liveSortValue(db, column, kind);
  const builder = db.kysely.schema.createIndex(liveSortIndexName(fieldId)).on(table);
  const withColumns = builder.expression(db.dialect === 'postgres' ? sql`${value} asc nulls first, "_id"` : sql`${value}, "_id"`);
  await withColumns.where(sql.ref('_deleted_at'), 'is', null).where(sql.ref('_published_at'), 'is not', null).execute();
}

/**
 * Brings a field's indexes to what its definition asks: for sortable types (`sort` says how they
 * compare), a sort index `(column, _id)` for editors' lists and one on the live value for readers'
 * (decisions/0007), both serving keyset pages; for `unique` fields a unique index `(column, _locale)`,
 * so the database itself refuses a duplicate, even between two racing writers.
 */
export async function setFieldIndexes(
  db: Db,
  table: string,
  column: string,
  fieldId: string,
  wanted: { sort: SortKind | undefined; unique: boolean },
): Promise<void> {
  const sortIndex = sortIndexName(fieldId);
  const liveSortIndex = liveSortIndexName(fieldId);
  const uniqueIndex = uniqueIndexName(fieldId);
  for (const index of [sortIndex, liveSortIndex, uniqueIndex]) await db.kysely.schema.dropIndex(index).ifExists().execute();
  if (wanted.sort !== undefined) {
    await createSortIndex(db, sortIndex, table, column);
    await createLiveSortIndex(db, table, column, fieldId, wanted.sort);
  }
  if (wanted.unique) await db.kysely.schema.createIndex(uniqueIndex).on(table).columns([column, '_locale']).unique().execute();
}

/** True when the table holds any entry, trashed ones included. */
export async function entryTableHasRows(db: Db, table: string): Promise<boolean> {
  const row = await db.kysely.selectFrom(table as never).select(sql<number>`1`.as('found')).limit(limitLiteral(1)).executeTakeFirst();
  return row !== undefined;
}

/**
 * Gives a column a new kind (integer → real is the one type change that needs it). SQLite columns
 * take any value of their affinity's neighbours as is, so only PostgreSQL rewrites the column.
 */
export async function setColumnKind(db: Db, table: string, column: string, kind: ColumnKind): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await db.kysely.schema.alterTable(table).alterColumn(column, (alter) => alter.setDataType(columnType(db, kind))).execute();
}

/** Whether the table exists (a restore creating entry tables again after an interruption). */
export async function tableExists(db: Db, table: string): Promise<boolean> {
  const found =
    db.dialect === 'postgres'
      ? await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(db.kysely)
      : await sql<{ found: string | null }>`select name as found from sqlite_master where type = 'table' and name = ${table}`.execute(db.kysely);
  return found.rows[0]?.found != null;
}
