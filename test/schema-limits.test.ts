import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { expectError, expectSuccess, issuePaths, type TestApp, createTestApp } from './support/harness.ts';

const collections = `${api}/schema/collections`;
/** Thousands of DDL statements (PostgreSQL's grow slower as a table widens): room on a busy machine. */
const slowSetup = 120_000;
/** PostgreSQL's most columns per table, dropped ones included. */
const postgresColumnLimit = 1600;

async function entryTable(t: TestApp, slug: string): Promise<string> {
  return (await t.db.kysely.selectFrom('collections').select('table_name').where('slug', '=', slug).executeTakeFirstOrThrow()).table_name;
}

/** The column numbers a table has used: its live columns, and on PostgreSQL the dropped ones too. */
async function columnNumbersUsed(t: TestApp, table: string): Promise<number> {
  const query =
    t.db.dialect === 'postgres'
      ? sql<{ used: number }>`select count(*)::int as used from pg_attribute where attrelid = ${table}::regclass and attnum > 0`
      : sql<{ used: number }>`select count(*) as used from pragma_table_xinfo(${table})`;
  return (await query.execute(t.db.kysely)).rows[0]!.used;
}

/** Every index and constraint of a table as the engine prints it, so a rebuild can be compared. */
async function tableDefinitions(t: TestApp, table: string): Promise<string[]> {
  const query =
    t.db.dialect === 'postgres'
      ? sql<{ definition: string }>`
          select indexdef as definition from pg_indexes where tablename = ${table}
          union all select conname || ' ' || pg_get_constraintdef(oid) from pg_constraint where conrelid = ${table}::regclass`
      : sql<{ definition: string }>`select coalesce(sql, name) as definition from sqlite_master where tbl_name = ${table} and type = 'index'`;
  return (await query.execute(t.db.kysely)).rows.map((row) => row.definition).sort();
}

/**
 * The state that ~1,600 cycles of adding and deleting a field leave behind, reached directly so the
 * suite stays fast: columns are added and dropped until the table has used PostgreSQL's 1,600 column
 * numbers (two statements there). SQLite gets the same number of real add/drop cycles.
 */
async function wearOut(t: TestApp, table: string): Promise<void> {
  const names = Array.from({ length: postgresColumnLimit - (await columnNumbersUsed(t, table)) }, (_, index) => sql.id(`worn_${index}`));
  if (t.db.dialect === 'postgres') {
    await sql`alter table ${sql.table(table)} ${sql.join(names.map((name) => sql`add column ${name} text`))}`.execute(t.db.kysely);
    await sql`alter table ${sql.table(table)} ${sql.join(names.map((name) => sql`drop column ${name}`))}`.execute(t.db.kysely);
  } else {
    for (const name of names) {
      await sql`alter table ${sql.table(table)} add column ${name} text`.execute(t.db.kysely);
      await sql`alter table ${sql.table(table)} drop column ${name}`.execute(t.db.kysely);
    }
  }
}

describe('a collection whose fields were added and deleted over and over', () => {
  let t: TestApp;
  const get = async (path: string) => expectSuccess(await t.request('GET', `${api}${path}`, { token: t.adminToken }));
  /** Every page of a list, following the cursors, as [title, code] pairs. */
  const walk = async (query: string) => {
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(`/content/notes?limit=2&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.items.map((item: { data: { title: string; code: string } }) => [item.data.title, item.data.code]));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return seen;
  };
  /** What a client can see of the collection: every entry, both sort orders in pages, the trash. */
  const everything = async (ids: string[]) => ({
    entries: await Promise.all(ids.map((id) => get(`/content/notes/${id}`))),
    ascending: await walk('orderBy=title&order=asc'),
    descending: await walk('orderBy=views&order=desc'),
    trash: await get('/content/notes/trash'),
  });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('still adds fields, with entries, drafts, indexes and unique values as they were', async () => {
    await createCollection(t, 'notes', [
      { slug: 'title', type: 'string' },
      { slug: 'code', type: 'string', unique: true },
      { slug: 'views', type: 'integer' },
      { slug: 'body', type: 'text' },
    ]);
    const ids: string[] = [];
    for (const [index, title] of ['Echo', 'Alpha', 'Delta', 'Bravo', 'Charlie'].entries()) {
      ids.push((await createEntry(t, 'notes', { data: { title, code: `C${index}`, views: index * 10, body: `About ${title}` }, status: 'published' })).id);
    }
    // A staged draft over a live entry, and an entry in the trash.
    expectSuccess(await t.request('PUT', `${api}/content/notes/${ids[0]}`, { token: t.adminToken, body: { data: { title: 'Echo (draft)' } } }));
    ids.push((await createEntry(t, 'notes', { data: { title: 'Foxtrot', code: 'C5' } })).id);
    expectSuccess(await t.request('DELETE', `${api}/content/notes/${ids[5]}`, { token: t.adminToken }));
    const table = await entryTable(t, 'notes');
    const before = await everything(ids.slice(0, 5));
    const definitions = await tableDefinitions(t, table);

    await wearOut(t, table);
    const added = await t.statementsDuring(async () =>
      expectCreated(await t.request('POST', `${collections}/notes/fields`, { token: t.adminToken, body: { slug: 'newcomer', label: 'Newcomer', type: 'string' } })),
    );
    // The rebuild left no dropped column behind (SQLite never keeps any): the table's own 15 columns
    // (`_id` … `_bylines`, `_seo`) and the five fields.
    const liveColumns = 15 + 5;
    expect(await columnNumbersUsed(t, table)).toBe(liveColumns);
    const rebuilds = (statements: string[]) => statements.filter((statement) => / \(like /.test(statement)).length;
    expect(rebuilds(added)).toBe(t.db.dialect === 'postgres' ? 1 : 0);

    // The same indexes and constraints, under the same names, plus the new field's sort indexes.
    const after = await tableDefinitions(t, table);
    expect(after.filter((definition) => !definition.includes('newcomer'))).toEqual(definitions);
    expect(after.length).toBeGreaterThan(definitions.length);

    // Without the new field again, clients see everything as it was.
    expectSuccess(await t.request('DELETE', `${collections}/notes/fields/newcomer`, { token: t.adminToken }));
    expect(await everything(ids.slice(0, 5))).toEqual(before);
    expect(await tableDefinitions(t, table)).toEqual(definitions);
    expect(before.ascending).toEqual([
      ['Alpha', 'C1'],
      ['Bravo', 'C3'],
      ['Charlie', 'C4'],
      ['Delta', 'C2'],
      ['Echo (draft)', 'C0'],
    ]);
    expect(before.trash.items.map((item: { id: string }) => item.id)).toEqual([ids[5]]);
    // The unique index holds against the database itself, not only the check before a save.
    await expect(sql`update ${sql.table(table)} set code = 'C1' where _id = ${ids[2]}`.execute(t.db.kysely)).rejects.toThrow(/unique/i);
    expect(issuePaths(await t.request('POST', `${api}/content/notes`, { token: t.adminToken, body: { data: { code: 'C1' } } }))).toEqual(['data.code']);

    // Under the budget again: further adds and deletes change columns only, with no rebuild.
    for (let cycle = 0; cycle < 3; cycle++) {
      const statements = await t.statementsDuring(async () =>
        expectCreated(await t.request('POST', `${collections}/notes/fields`, { token: t.adminToken, body: { slug: 'tmp', label: 'Tmp', type: 'string' } })),
      );
      expect(rebuilds(statements)).toBe(0);
      expectSuccess(await t.request('DELETE', `${collections}/notes/fields/tmp`, { token: t.adminToken }));
    }
    expect(await everything(ids.slice(0, 5))).toEqual(before);
  }, slowSetup);
});

describe('the most fields a collection may have', () => {
  let t: TestApp;
  const limit = 300;
  const slugs = Array.from({ length: limit }, (_, index) => `f${String(index).padStart(3, '0')}`);
  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(
      t,
      'wide',
      slugs.map((slug) => ({ slug, type: 'text' })),
    );
  }, slowSetup);
  afterAll(() => t.close());

  it('refuses one field more with 400 naming the limit', async () => {
    const response = await t.request('POST', `${collections}/wide/fields`, { token: t.adminToken, body: { slug: 'one_more', label: 'One more', type: 'string' } });
    expect(issuePaths(response)).toEqual(['slug']);
    expect(expectError(response, 400, 'VALIDATION_ERROR').message).toContain(`${limit} fields`);
    // Deleting one makes room again.
    expectSuccess(await t.request('DELETE', `${collections}/wide/fields/${slugs.at(-1)}`, { token: t.adminToken }));
    expectCreated(await t.request('POST', `${collections}/wide/fields`, { token: t.adminToken, body: { slug: slugs.at(-1), label: 'Last', type: 'string' } }));
  });

  it('stores an entry with every field filled with values that stay in the row', async () => {
    // 23 bytes is the longest text PostgreSQL keeps in the row rather than moving it out (random, so
    // it does not compress): the widest row an entry can make.
    const data = Object.fromEntries(slugs.map((slug) => [slug, randomBytes(12).toString('hex').slice(0, 23)]));
    const item = await createEntry(t, 'wide', { data, status: 'published' });
    expect(expectSuccess(await t.request('GET', `${api}/content/wide/${item.id}`, { token: t.adminToken })).item.data).toEqual(data);
  });

  it('reorders all of them', async () => {
    const reversed = [...slugs].reverse();
    const { items } = expectSuccess(await t.request('POST', `${collections}/wide/fields/reorder`, { token: t.adminToken, body: { fieldSlugs: reversed } }));
    expect(items.map((field: { slug: string }) => field.slug)).toEqual(reversed);
    const listed = expectSuccess(await t.request('GET', `${collections}/wide/fields`, { token: t.adminToken })).items;
    expect(listed.map((field: { slug: string }) => field.slug)).toEqual(reversed);
    expect(issuePaths(await t.request('POST', `${collections}/wide/fields/reorder`, { token: t.adminToken, body: { fieldSlugs: [...reversed, 'x'] } }))).toEqual(['fieldSlugs']);
  });
});
