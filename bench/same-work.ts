import { createHash } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import type { Context, Hono } from 'hono';
import pg from 'pg';
import { markdownToPortableText } from '../src/content/portable-text.ts';
import { encodeCursor } from '../src/core/cursor.ts';
import { newId } from '../src/core/ids.ts';
import { JsonWriter, RawJson } from '../src/core/raw-json.ts';
import { numberedSlug, slugify } from '../src/core/slugs.ts';
import { entryTableName } from '../src/db/entry-tables.ts';

/**
 * The same-work baselines (docs/decisions/0051): hand-written routes that do what Folio's GET entry,
 * list of 50, create and MCP `content_get` do on the bench's collection, and nothing else: the bearer
 * token's hash looked up, the same SQL statements in the same order (what test/statements.test.ts
 * pins), the same JSON out. What SQLite's Folio keeps in memory between writes (the token's row, the
 * collection's definition, the settings) is kept here too, checked by the same `pragma data_version`;
 * on PostgreSQL Folio keeps them while no notification says they changed (db/change-feed.ts), which
 * costs a request nothing, and so they are simply kept here. No middleware, no validation
 * library, no operation layer, no logger: Folio's figure divided by this one is what those cost.
 */

interface Field {
  slug: string;
  type: string;
}

interface Collection {
  id: string;
  slug: string;
  table: string;
  fields: Field[];
}

interface TokenRow {
  tokenId: string;
  userId: string;
  disabled: number | boolean;
  expiresAt: string | null;
}

type Row = Record<string, unknown>;

/** What a request reads before its own work, as Folio reads it (cached on SQLite, read on PostgreSQL). */
interface Prelude {
  token?: TokenRow;
  collection?: Collection;
}

interface Store {
  prelude(tokenHash: string, slug: string): Promise<Prelude>;
  entry(collection: Collection, id: string): Promise<Row | undefined>;
  list(collection: Collection, limit: number): Promise<Row[]>;
  /** In one transaction: the collection locked, the slug found free, the entry and its revision written. */
  create(collection: Collection, plan: CreatePlan): Promise<Row>;
}

/** A create's writes, waiting for the first free slug of `candidates`. */
interface CreatePlan {
  candidates: string[];
  row(slug: string): Row;
  revision(row: Row): Row;
}

const tokenSql = (p: (n: number) => string) =>
  `select "api_tokens"."id" as "tokenId", "api_tokens"."scopes", "api_tokens"."expires_at" as "expiresAt", "api_tokens"."last_used_at" as "lastUsedAt", "users"."id" as "userId", "users"."email", "users"."name", "users"."role", "users"."disabled" from "api_tokens" inner join "users" on "users"."id" = "api_tokens"."user_id" where "api_tokens"."token_hash" = ${p(1)}`;
const collectionSql = (p: (n: number) => string) =>
  `select "c".*, "f"."id" as "f_id", "f"."slug" as "f_slug", "f"."label" as "f_label", "f"."type" as "f_type", "f"."required" as "f_required", "f"."is_unique" as "f_is_unique", "f"."default_value" as "f_default_value", "f"."validation" as "f_validation", "f"."options" as "f_options", "f"."searchable" as "f_searchable", "f"."translatable" as "f_translatable", "f"."sort_order" as "f_sort_order", "f"."created_at" as "f_created_at", "f"."updated_at" as "f_updated_at" from "collections" as "c" left join "fields" as "f" on "f"."collection_id" = "c"."id" where "c"."slug" = ${p(1)} order by "f"."sort_order"`;
const entrySql = (table: string, p: (n: number) => string) => `select * from "${table}" where "_id" = ${p(1)}`;
const listSql = (table: string, p: (n: number) => string) => `select * from "${table}" where _deleted_at is null order by "rank" asc nulls first, "_id" asc limit ${p(1)}`;
const slugsSql = (table: string, count: number, p: (n: number) => string) =>
  `select "_slug" from "${table}" where "_locale" = ${p(1)} and "_slug" in (${Array.from({ length: count }, (_, i) => p(i + 2)).join(', ')})`;
const insertSql = (table: string, columns: string[], p: (n: number) => string) =>
  `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values (${columns.map((_, i) => p(i + 1)).join(', ')})`;

const question = () => '?';
const dollar = (n: number) => `$${n}`;

function toCollection(rows: Row[]): Collection | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const fields = rows.filter((row) => row.f_slug !== null).map((row) => ({ slug: String(row.f_slug), type: String(row.f_type) }));
  return { id: String(first.id), slug: String(first.slug), table: entryTableName(String(first.id)), fields };
}

function sqliteStore(file: string): Store {
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  const statements = new Map<string, SqliteDatabase.Statement>();
  const prepare = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = database.prepare(text)));
    return statement;
  };
  const dataVersion = database.prepare('pragma data_version').pluck();
  // Folio's read caches (db/read-cache.ts): valid while no other connection has committed.
  let cachedAt = -1;
  const tokens = new Map<string, TokenRow>();
  const collections = new Map<string, Collection>();
  const cached = <V>(cache: Map<string, V>, key: string, load: () => V | undefined) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    if (value !== undefined) cache.set(key, value);
    return value;
  };
  const checkVersion = () => {
    const version = dataVersion.get() as number;
    if (version === cachedAt) return;
    tokens.clear();
    collections.clear();
    cachedAt = version;
  };
  const loadCollection = (slug: string) => cached(collections, slug, () => toCollection(prepare(collectionSql(question)).all(slug) as Row[]));
  return {
    async prelude(tokenHash, slug) {
      checkVersion();
      return { token: cached(tokens, tokenHash, () => prepare(tokenSql(question)).get(tokenHash) as TokenRow | undefined), collection: loadCollection(slug) };
    },
    async entry(collection, id) {
      return prepare(entrySql(collection.table, question)).get(id) as Row | undefined;
    },
    async list(collection, limit) {
      return prepare(listSql(collection.table, question)).all(limit) as Row[];
    },
    async create(collection, plan) {
      prepare('begin immediate').run();
      try {
        prepare('savepoint folio_write').run();
        prepare('select * from "collections" where "slug" = ?').get(collection.slug);
        // Inside the transaction Folio checks its schema cache against the version once more.
        checkVersion();
        const taken = new Set((prepare(slugsSql(collection.table, plan.candidates.length, question)).all('en', ...plan.candidates) as { _slug: string }[]).map((row) => row._slug));
        const row = plan.row(plan.candidates.find((candidate) => !taken.has(candidate))!);
        const revision = plan.revision(row);
        prepare(insertSql(collection.table, Object.keys(row), question)).run(...Object.values(row));
        prepare(insertSql('revisions', Object.keys(revision), question)).run(...Object.values(revision));
        prepare('release folio_write').run();
        prepare('commit').run();
        return row;
      } catch (error) {
        if (database.inTransaction) prepare('rollback').run();
        throw error;
      }
    },
  };
}

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const query = async (text: string, values: unknown[], client: pg.Pool | pg.PoolClient = pool) => (await client.query({ text, values })).rows as Row[];
  const tokens = new Map<string, TokenRow>();
  const collections = new Map<string, Collection>();
  return {
    async prelude(tokenHash, slug) {
      let token = tokens.get(tokenHash);
      if (!token) {
        [token] = (await query(tokenSql(dollar), [tokenHash])) as unknown as TokenRow[];
        if (token) tokens.set(tokenHash, token);
      }
      let collection = collections.get(slug);
      if (!collection) {
        collection = toCollection(await query(collectionSql(dollar), [slug]));
        if (collection) collections.set(slug, collection);
      }
      return { token, collection };
    },
    async entry(collection, id) {
      return (await query(entrySql(collection.table, dollar), [id]))[0];
    },
    async list(collection, limit) {
      return query(listSql(collection.table, dollar), [limit]);
    },
    async create(collection, plan) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await query('select * from "collections" where "slug" = $1 for share', [collection.slug], client);
        const taken = new Set((await query(slugsSql(collection.table, plan.candidates.length, dollar), ['en', ...plan.candidates], client)).map((row) => row._slug));
        const row = plan.row(plan.candidates.find((candidate) => !taken.has(candidate))!);
        const revision = plan.revision(row);
        await query(insertSql(collection.table, Object.keys(row), dollar), Object.values(row), client);
        await query(insertSql('revisions', Object.keys(revision), dollar), Object.values(revision), client);
        await client.query('commit');
        return row;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** The entry as Folio's editor view shows it (content/entries.ts toEntry), JSON columns spliced in as stored. */
function toItem(collection: Collection, row: Row): Row {
  const data: Row = {};
  for (const field of collection.fields) data[field.slug] = responseValue(field, row[field.slug]);
  const item: Row = {
    id: row._id,
    type: collection.slug,
    slug: row._slug,
    status: row._status,
    locale: row._locale,
    translationGroup: row._group,
    data,
    createdAt: row._created_at,
    updatedAt: row._updated_at,
    _rev: Buffer.from(`${String(row._id)}.${String(row._version)}`).toString('base64url'),
  };
  if (row._live !== null) {
    const live = JSON.parse(String(row._live)) as Row;
    item.liveData = Object.fromEntries(collection.fields.map((field) => [field.slug, live[field.slug] ?? null]));
  }
  if (row._published_at !== null) item.publishedAt = row._published_at;
  if (row._scheduled_at !== null) item.scheduledAt = row._scheduled_at;
  if (row._deleted_at !== null) item.deletedAt = row._deleted_at;
  return item;
}

const jsonTypes = new Set(['portableText', 'json', 'multiSelect', 'image', 'file']);

function responseValue(field: Field, stored: unknown): unknown {
  if (stored === null || stored === undefined) return null;
  if (jsonTypes.has(field.type)) return new RawJson(String(stored));
  if (field.type === 'boolean') return Number(stored) !== 0;
  if (field.type === 'integer' || field.type === 'number') return Number(stored);
  return stored;
}

/** The new entry's row and revision from a create's `data`, as Folio writes them (content/write.ts newEntryRow). */
function createPlan(collection: Collection, userId: string, data: Row): CreatePlan {
  const values: Row = {};
  for (const field of collection.fields) {
    if (!Object.hasOwn(data, field.slug)) continue;
    const value = data[field.slug];
    values[field.slug] = field.type === 'portableText' && typeof value === 'string' ? markdownToPortableText(value) : value;
  }
  const base = slugify(typeof data.title === 'string' ? data.title : collection.slug) || 'entry';
  const now = new Date().toISOString();
  const id = newId();
  return {
    candidates: Array.from({ length: 20 }, (_, index) => numberedSlug(base, index + 1)),
    row: (slug: string): Row => ({
      _id: id,
      _slug: slug,
      _locale: 'en',
      _group: id,
      _status: 'draft',
      _version: 1,
      _live: null,
      _author_id: userId,
      _bylines: null,
      _created_at: now,
      _updated_at: now,
      _published_at: null,
      _scheduled_at: null,
      _deleted_at: null,
      ...Object.fromEntries(Object.entries(values).map(([slug, value]) => [slug, columnValue(value)])),
    }),
    revision: (row: Row): Row => ({
      id: newId(),
      collection_id: collection.id,
      entry_id: id,
      data: JSON.stringify(Object.fromEntries(collection.fields.map((field) => [field.slug, values[field.slug] ?? null]))),
      slug: row._slug,
      author_id: userId,
      created_at: now,
    }),
  };
}

/** As Folio's columns hold a value: JSON as text, booleans as 1 and 0 (fields/columns.ts). */
function columnValue(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
}

/** The same-work routes under /same/, on the database at `databaseUrl` (file:… or postgres://…). */
export function addSameWorkRoutes(app: Hono, databaseUrl: string): void {
  const store = databaseUrl.startsWith('postgres') ? postgresStore(databaseUrl) : sqliteStore(databaseUrl.replace(/^file:/, ''));
  const writer = new JsonWriter();
  const json = (c: Context, value: unknown, status: 200 | 201 = 200) => c.body(writer.write(value), status, { 'content-type': 'application/json' });
  const refused = (c: Context) => c.body('{"success":false}', 401, { 'content-type': 'application/json' });

  /** The token check Folio makes: the bearer secret's SHA-256 looked up, the user enabled, the token unexpired. */
  const prelude = async (c: Context, slug: string) => {
    const secret = /^Bearer +(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!secret) return undefined;
    const found = await store.prelude(createHash('sha256').update(secret).digest('hex'), slug);
    const token = found.token;
    if (!token || Number(token.disabled) === 1 || (token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now()) || !found.collection) return undefined;
    return { token, collection: found.collection };
  };

  app.get('/same/content/:collection/:id', async (c) => {
    const found = await prelude(c, c.req.param('collection'));
    if (!found) return refused(c);
    const row = await store.entry(found.collection, c.req.param('id'));
    return row ? json(c, { success: true, data: { item: toItem(found.collection, row) } }) : c.notFound();
  });
  app.get('/same/content/:collection', async (c) => {
    const found = await prelude(c, c.req.param('collection'));
    if (!found) return refused(c);
    const limit = Number(c.req.query('limit') ?? 50);
    const rows = await store.list(found.collection, limit + 1);
    const items = rows.slice(0, limit).map((row) => toItem(found.collection, row));
    const page: Row = { items };
    if (rows.length > limit) page.nextCursor = encodeCursor([String(rows[limit - 1]!._id)]);
    return json(c, { success: true, data: page });
  });
  app.post('/same/content/:collection', async (c) => {
    const found = await prelude(c, c.req.param('collection'));
    if (!found) return refused(c);
    const { data } = (await c.req.json()) as { data: Row };
    const plan = createPlan(found.collection, found.token.userId, data);
    const row = await store.create(found.collection, plan);
    return json(c, { success: true, data: { item: toItem(found.collection, row) } }, 201);
  });
  app.post('/same/mcp', async (c) => {
    const call = (await c.req.json()) as { id: number; method: string; params: { name: string; arguments: { collection: string; id: string } } };
    if (call.method !== 'tools/call' || call.params.name !== 'content_get') return c.notFound();
    const found = await prelude(c, call.params.arguments.collection);
    if (!found) return refused(c);
    const row = await store.entry(found.collection, call.params.arguments.id);
    if (!row) return c.notFound();
    const result = { item: toItem(found.collection, row) };
    return json(c, { jsonrpc: '2.0', id: call.id, result: { content: [{ type: 'text', text: writer.write(result) }], structuredContent: result } });
  });
}
