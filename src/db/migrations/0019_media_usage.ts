import type { Kysely } from 'kysely';
import { entryMediaNames, keysNamed, mediaNamingTypes, usagePairs, type NamingField } from '../../core/media-references.ts';

/**
 * Where each media item is used (decisions/0045): one row per item, entry and field that names it,
 * kept by the entry listener of src/content/media-usage.ts. Filled here from the entries that exist,
 * a batch of rows at a time, so `GET /media/:id/usage` is right from the first start after it.
 */
const batchSize = 500;
/** Rows or keys per statement: well under SQLite's limit of bound values whatever an entry names. */
const chunkSize = 1000;

export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('media_usage')
    .addColumn('media_id', 'text', (column) => column.notNull())
    .addColumn('entry_id', 'text', (column) => column.notNull())
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('field_id', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('media_usage_pk', ['media_id', 'entry_id', 'field_id'])
    .execute();
  // The listener replaces an entry's rows; the key above serves the reads by item.
  await db.schema.createIndex('media_usage_entry').on('media_usage').column('entry_id').execute();
  await fillMediaUsage(db);
}

/** Records what every existing entry names (exported so a test can compare it with the listener's rows). */
export async function fillMediaUsage(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  const fields = (await db.selectFrom('fields').select(['id', 'collection_id', 'slug', 'type']).where('type', 'in', [...mediaNamingTypes]).execute()) as (NamingField & { collection_id: string })[];
  if (fields.length === 0) return;
  const collections = (await db.selectFrom('collections').select(['id', 'table_name']).execute()) as { id: string; table_name: string }[];
  for (const collection of collections) {
    const own = fields.filter((field) => field.collection_id === collection.id);
    if (own.length > 0) await fillCollection(db, collection, own);
  }
}

async function fillCollection(db: Kysely<any>, collection: { id: string; table_name: string }, fields: NamingField[]): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  let after = '';
  for (;;) {
    const rows = (await db
      .selectFrom(collection.table_name)
      .select(['_id', '_live', ...fields.map((field) => field.slug)])
      .where('_id', '>', after)
      .orderBy('_id')
      .limit(batchSize)
      .execute()) as Record<string, unknown>[];
    const named = rows.map((row) => ({ entryId: String(row._id), byField: entryMediaNames(fields, row) }));
    const keys = [...new Set(named.flatMap(({ byField }) => keysNamed(byField)))];
    const idOfKey = new Map<string, string>();
    for (const part of chunks(keys, chunkSize)) {
      const media = (await db.selectFrom('media').select(['id', 'storage_key']).where('storage_key', 'in', part).execute()) as { id: string; storage_key: string }[];
      for (const item of media) idOfKey.set(item.storage_key, item.id);
    }
    const usage = named.flatMap(({ entryId, byField }) =>
      usagePairs(byField, idOfKey).map(({ fieldId, mediaId }) => ({ media_id: mediaId, entry_id: entryId, collection_id: collection.id, field_id: fieldId })),
    );
    for (const part of chunks(usage, chunkSize)) await db.insertInto('media_usage').values(part).execute();
    if (rows.length < batchSize) return;
    after = String(rows.at(-1)!._id);
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}
