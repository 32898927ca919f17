import { CompiledQuery, sql } from 'kysely';
import { roles } from '../src/core/roles.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { distinctPng, uploadMedia } from './support/media.ts';

const api = '/_cms/api';

/** Reads cost a fixed number of statements: no query per entry, per field or per reference (no N+1). */
describe('SQL statements per request', () => {
  let t: TestApp;
  let firstId: string;
  let firstPhotoId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = { token: t.adminToken };
    expect((await t.request('POST', `${api}/schema/collections`, { ...admin, body: { slug: 'authors', label: 'Authors' } })).status).toBe(201);
    expect((await t.request('POST', `${api}/schema/collections/authors/fields`, { ...admin, body: { slug: 'name', label: 'Name', type: 'string' } })).status).toBe(201);
    const author = (await t.request('POST', `${api}/content/authors`, { ...admin, body: { data: { name: 'Ada' } } })).body.data.item.id;
    expect((await t.request('POST', `${api}/schema/collections`, { ...admin, body: { slug: 'books', label: 'Books' } })).status).toBe(201);
    const fields = [
      { slug: 'title', label: 'Title', type: 'string' },
      { slug: 'pages', label: 'Pages', type: 'integer' },
      { slug: 'summary', label: 'Summary', type: 'portableText' },
      { slug: 'tags', label: 'Tags', type: 'multiSelect', validation: { options: ['a', 'b'] } },
      { slug: 'author', label: 'Author', type: 'reference', options: { collection: 'authors' } },
      { slug: 'extra', label: 'Extra', type: 'json' },
    ];
    for (const body of fields) expect((await t.request('POST', `${api}/schema/collections/books/fields`, { ...admin, body })).status).toBe(201);
    for (let index = 0; index < 60; index++) {
      const data = { title: `Book ${index}`, pages: index, summary: 'Some *text*', tags: ['a'], author, extra: { index } };
      const created = await t.request('POST', `${api}/content/books`, { ...admin, body: { data, status: index % 2 ? 'published' : 'draft' } });
      firstId ??= created.body.data.item.id;
    }
    // The same shape with two image fields naming media items, to count what filling them in costs.
    expect((await t.request('POST', `${api}/schema/collections`, { ...admin, body: { slug: 'photos', label: 'Photos' } })).status).toBe(201);
    for (const body of [...fields, { slug: 'front', label: 'Front', type: 'image' }, { slug: 'back', label: 'Back', type: 'image' }]) {
      expect((await t.request('POST', `${api}/schema/collections/photos/fields`, { ...admin, body })).status).toBe(201);
    }
    const media = await Promise.all(Array.from({ length: 10 }, async (_, index) => (await uploadMedia(t, await distinctPng(index))).id as string));
    for (let index = 0; index < 60; index++) {
      const data = { title: `Photo ${index}`, pages: index, front: media[index % 10], back: { id: media[(index + 3) % 10], alt: 'Back' } };
      const created = await t.request('POST', `${api}/content/photos`, { ...admin, body: { data, status: index % 2 ? 'published' : 'draft' } });
      firstPhotoId ??= created.body.data.item.id;
    }
    // One request first, so the once-a-minute "last used" write of the token is out of the way.
    expectSuccess(await t.request('GET', `${api}/content/books/${firstId}`, admin));
  });
  afterAll(() => t.close());

  const statementsOf = (path: string) => t.statementsDuring(async () => expectSuccess(await t.request('GET', path, { token: t.adminToken })));

  it('gets an entry in at most 3 statements', async () => {
    const statements = await statementsOf(`${api}/content/books/${firstId}`);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(3);
    expect(statements.length).toBeGreaterThan(0);
  });

  it('gets an entry by slug in at most 3 statements', async () => {
    const statements = await statementsOf(`${api}/content/books/book-1`);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(3);
  });

  it('lists a page in the same number of statements whatever its size', async () => {
    const small = await statementsOf(`${api}/content/books?limit=2&orderBy=pages`);
    const large = await statementsOf(`${api}/content/books?limit=50&orderBy=pages`);
    expect(large.length, large.join('\n')).toBe(small.length);
    expect(large.length).toBeLessThanOrEqual(3);
  });

  it('fills in the media of a whole page (50 entries, two image fields each) with exactly one more statement', async () => {
    const books = await statementsOf(`${api}/content/books?limit=50&orderBy=pages`);
    const photos = await statementsOf(`${api}/content/photos?limit=50&orderBy=pages`);
    expect(photos.length, photos.join('\n')).toBe(books.length + 1);
    expect(photos.filter((statement) => /from "media"/.test(statement))).toHaveLength(1);
    expect((await statementsOf(`${api}/content/photos?limit=2&orderBy=pages`)).length).toBe(photos.length);
  });

  it('gets an entry naming media in at most 4 statements (one for its media)', async () => {
    const statements = await statementsOf(`${api}/content/photos/${firstPhotoId}`);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(4);
    expect(statements.filter((statement) => /from "media"/.test(statement))).toHaveLength(1);
  });

  /** The plan of `query` as text. PostgreSQL is asked for one without sorts or full scans: one exists only if an index gives the order. */
  async function planOf(query: string, parameters: unknown[] = []): Promise<string> {
    return t.db.kysely.transaction().execute(async (trx) => {
      if (t.db.dialect === 'postgres') await sql`set local enable_sort = off; set local enable_seqscan = off`.execute(trx);
      const explain = t.db.dialect === 'sqlite' ? 'explain query plan' : 'explain';
      return JSON.stringify((await trx.executeQuery(CompiledQuery.raw(`${explain} ${query}`, parameters))).rows);
    });
  }

  async function pagesField(): Promise<{ id: string; table: string }> {
    const { items: fields } = expectSuccess(await t.request('GET', `${api}/schema/collections/books/fields`, { token: t.adminToken }));
    const pages = fields.find((field: { slug: string }) => field.slug === 'pages');
    const { table_name: table } = await t.db.kysely.selectFrom('collections').select('table_name').where('slug', '=', 'books').executeTakeFirstOrThrow();
    return { id: pages.id.toLowerCase(), table };
  }

  it('serves a list sorted by a field from that field index, both ways', async () => {
    const { id, table } = await pagesField();
    for (const order of ['asc nulls first', 'desc nulls last']) {
      // SQLite's planner takes the index on its own; PostgreSQL rightly prefers sorting 60 rows (planOf).
      const text = await planOf(`select * from ${table} where _deleted_at is null order by pages ${order}, _id ${order.split(' ')[0]} limit 51`);
      expect(text).toContain(`ix_${id}`);
      expect(text.toLowerCase()).not.toMatch(/temp b-tree|sort key/);
    }
  });

  it("serves a reader's list sorted by a field from its live sort index, both ways and past a cursor", async () => {
    const { id, table } = await pagesField();
    const reader = (await t.userWithToken(roles.subscriber, ['content:read'])).token;
    for (const order of ['asc', 'desc']) {
      const first = await t.request('GET', `${api}/content/books?orderBy=pages&order=${order}&limit=5`, { token: reader });
      const cursor = expectSuccess(first).nextCursor;
      // The statements the reader's pages really send; the list is the one that orders by the live value.
      for (const path of [`?orderBy=pages&order=${order}&limit=5`, `?orderBy=pages&order=${order}&limit=5&cursor=${cursor}`]) {
        const statements = await t.statementsDuring(async () => expectSuccess(await t.request('GET', `${api}/content/books${path}`, { token: reader })));
        const list = statements.find((statement) => statement.includes(table) && /order by/i.test(statement))!;
        // Any values do for a plan: each placeholder (the cursor's key and id, the limit) gets 5.
        const text = await planOf(list, [...list.matchAll(/\?|\$\d+/g)].map(() => 5));
        expect(text, list).toContain(`lx_${id}`);
        expect(text.toLowerCase()).not.toMatch(/temp b-tree|sort key/);
      }
    }
  });

  it('serves a list filtered by a term from the sort index when many entries hold it, and by id when few do', async () => {
    const admin = { token: t.adminToken };
    expectCreated(await t.request('POST', `${api}/taxonomies`, { ...admin, body: { name: 'shelf', label: 'Shelves', collections: ['books'] } }));
    const shelf = expectCreated(await t.request('POST', `${api}/taxonomies/shelf/terms`, { ...admin, body: { slug: 'top', label: 'Top' } })).item.id;
    expectSuccess(await t.request('POST', `${api}/content/books/${firstId}/terms/shelf`, { ...admin, body: { termIds: [shelf] } }));
    const { table } = await pagesField();
    const unfiltered = (await statementsOf(`${api}/content/books?limit=5`)).length;
    const planOfList = async () => {
      await statementsOf(`${api}/content/books?term=shelf:top&limit=5`);
      const statements = await statementsOf(`${api}/content/books?term=shelf:top&limit=5`);
      const list = statements.find((statement) => statement.includes(table) && /order by/i.test(statement))!;
      // What the filter means is remembered on SQLite; PostgreSQL looks up the taxonomy, the term and how many hold it.
      expect(statements.length, statements.join('\n')).toBe(unfiltered + (t.db.dialect === 'sqlite' ? 0 : 4));
      return (await planOf(list, [...list.matchAll(/\?|\$\d+/g)].map(() => 5))).toLowerCase();
    };
    // Few: the entries are found by id (a sort of a few hundred rows at most is fine).
    expect(await planOfList()).not.toMatch(/scan [^"]*using index [^"]*_created_at/);
    // Many (rows for entries that do not exist suffice): the created-at index gives the order, and each
    // entry's terms are one seek, by (term, entry) or by (entry, taxonomy).
    const { taxonomy_id: taxonomyId, collection_id: collectionId } = await t.db.kysely.selectFrom('entry_terms').select(['taxonomy_id', 'collection_id']).where('term_id', '=', shelf).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('entry_terms')
      .values(Array.from({ length: 501 }, (_, index) => ({ term_id: shelf, taxonomy_id: taxonomyId, collection_id: collectionId, entry_id: `PHANTOM${index}`, created_at: now })))
      .execute();
    const many = await planOfList();
    expect(many).toContain('_created_at');
    expect(many).toMatch(/entry_terms_(entry|pk)|sqlite_autoindex_entry_terms/);
    expect(many).not.toMatch(/temp b-tree|sort key/);
  });
});
