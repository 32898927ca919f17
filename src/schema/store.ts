import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { lockRows, lockRowsShared } from '../db/dialect.ts';
import { ReadCache } from '../db/read-cache.ts';
import type { CollectionsTable, FieldsTable } from '../db/types.ts';
import { fieldTypes } from '../fields/names.ts';
import { fieldType } from '../fields/registry.ts';
import type { FieldDefinition } from '../fields/definition.ts';
import type { FieldType } from '../fields/names.ts';
import type { CollectionDefinition, CollectionFeature, CollectionSchema, CommentSettings } from './types.ts';

export type CollectionRow = Selectable<CollectionsTable>;
export type FieldRow = Selectable<FieldsTable>;

/** A collection as content operations need it: the definition, its fields and its entry table. */
export interface LoadedCollection extends CollectionSchema {
  tableName: string;
}

export function toCollection(row: CollectionRow): CollectionDefinition {
  const collection: CollectionDefinition = {
    id: row.id,
    slug: row.slug,
    label: row.label,
    supports: JSON.parse(row.supports) as CollectionFeature[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.label_singular !== null) collection.labelSingular = row.label_singular;
  if (row.description !== null) collection.description = row.description;
  if (row.icon !== null) collection.icon = row.icon;
  if (row.url_pattern !== null) collection.urlPattern = row.url_pattern;
  if (row.comments !== null) collection.comments = JSON.parse(row.comments) as CommentSettings;
  return collection;
}

export function toField(row: FieldRow): FieldDefinition {
  const field: FieldDefinition = {
    id: row.id,
    slug: row.slug,
    label: row.label,
    type: row.type as FieldType,
    required: row.required === 1,
    unique: row.is_unique === 1,
    validation: JSON.parse(row.validation),
    options: JSON.parse(row.options),
    searchable: row.searchable === 1,
    translatable: row.translatable === 1,
    sortOrder: row.sort_order,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.default_value !== null) field.defaultValue = JSON.parse(row.default_value);
  return field;
}

/** A field definition as its row: the inverse of `toField`. */
export function toFieldRow(field: FieldDefinition, collectionId: string): FieldRow {
  return {
    id: field.id,
    collection_id: collectionId,
    slug: field.slug,
    label: field.label,
    type: field.type,
    required: field.required ? 1 : 0,
    is_unique: field.unique ? 1 : 0,
    default_value: field.defaultValue === undefined ? null : JSON.stringify(field.defaultValue),
    validation: JSON.stringify(field.validation),
    options: JSON.stringify(field.options),
    searchable: field.searchable ? 1 : 0,
    translatable: field.translatable ? 1 : 0,
    sort_order: field.sortOrder,
    created_at: field.createdAt,
    updated_at: field.updatedAt,
  };
}

const schemaCache = new ReadCache<LoadedCollection>(200, ['collections', 'fields']);

/**
 * A collection with its fields in one statement; on SQLite usually from memory (exact: any schema
 * change by any process moves the change stamp). Every content request starts here.
 */
export async function loadCollection(db: Db, slug: string): Promise<LoadedCollection | undefined> {
  return schemaCache.get(db, slug, async () => {
    const rows = await db.kysely
      .selectFrom('collections as c')
      .leftJoin('fields as f', 'f.collection_id', 'c.id')
      .selectAll('c')
      .select([
        'f.id as f_id',
        'f.slug as f_slug',
        'f.label as f_label',
        'f.type as f_type',
        'f.required as f_required',
        'f.is_unique as f_is_unique',
        'f.default_value as f_default_value',
        'f.validation as f_validation',
        'f.options as f_options',
        'f.searchable as f_searchable',
        'f.translatable as f_translatable',
        'f.sort_order as f_sort_order',
        'f.created_at as f_created_at',
        'f.updated_at as f_updated_at',
      ])
      .where('c.slug', '=', slug)
      .orderBy('f.sort_order')
      .execute();
    const first = rows[0];
    if (!first) return undefined;
    const fields = rows
      .filter((row) => row.f_id !== null)
      .map((row) =>
        toField({
          id: row.f_id!,
          collection_id: row.id,
          slug: row.f_slug!,
          label: row.f_label!,
          type: row.f_type!,
          required: row.f_required!,
          is_unique: row.f_is_unique!,
          default_value: row.f_default_value,
          validation: row.f_validation!,
          options: row.f_options!,
          searchable: row.f_searchable!,
          translatable: row.f_translatable!,
          sort_order: row.f_sort_order!,
          created_at: row.f_created_at!,
          updated_at: row.f_updated_at!,
        }),
      );
    return { ...toCollection(first), fields, tableName: first.table_name };
  });
}

/**
 * Locks a collection's row for the rest of the transaction: `share` for content writes (many at once),
 * `update` for schema changes, so a schema change never lands between a content write reading the
 * fields and writing their columns.
 */
export async function lockCollectionRow(db: Db, slug: string, mode: 'share' | 'update'): Promise<CollectionRow | undefined> {
  const query = db.kysely.selectFrom('collections').selectAll().where('slug', '=', slug);
  return (mode === 'share' ? lockRowsShared(db, query) : lockRows(db, query)).executeTakeFirst();
}

/** A collection by id, loaded with its fields (revisions and schedules refer to collections by id). */
export async function loadCollectionById(db: Db, id: string): Promise<LoadedCollection | undefined> {
  const row = await db.kysely.selectFrom('collections').select('slug').where('id', '=', id).executeTakeFirst();
  return row && loadCollection(db, row.slug);
}

export async function listCollectionRows(db: Db): Promise<CollectionRow[]> {
  return db.kysely.selectFrom('collections').selectAll().orderBy('slug').execute();
}

export async function listFieldRows(db: Db, collectionId?: string): Promise<FieldRow[]> {
  let query = db.kysely.selectFrom('fields').selectAll().orderBy('collection_id').orderBy('sort_order');
  if (collectionId !== undefined) query = query.where('collection_id', '=', collectionId);
  return query.execute();
}

/** The types whose values are entry ids of `options.collection`: reference. */
const entryReferenceTypes = fieldTypes.filter((type) => fieldType(type).pointsAt === 'entry');

/** Every reference field, with the slug of the collection it belongs to. */
export async function listReferenceFields(db: Db): Promise<{ collection: string; slug: string; target: string | undefined }[]> {
  const rows = await db.kysely
    .selectFrom('fields as f')
    .innerJoin('collections as c', 'c.id', 'f.collection_id')
    .select(['c.slug as collection', 'f.slug', 'f.options'])
    .where('f.type', 'in', entryReferenceTypes)
    .execute();
  return rows.map((row) => ({ collection: row.collection, slug: row.slug, target: (JSON.parse(row.options) as { collection?: string }).collection }));
}

export async function insertCollection(db: Db, row: CollectionRow): Promise<void> {
  await db.kysely.insertInto('collections').values(row).execute();
}

export async function updateCollectionRow(db: Db, id: string, changes: Partial<Omit<CollectionRow, 'id' | 'slug' | 'table_name'>>): Promise<void> {
  await db.kysely.updateTable('collections').set(changes).where('id', '=', id).execute();
}

export async function deleteCollectionRow(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('collections').where('id', '=', id).execute();
}

export async function insertField(db: Db, row: FieldRow): Promise<void> {
  await db.kysely.insertInto('fields').values(row).execute();
}

export async function updateFieldRow(db: Db, id: string, changes: Partial<Omit<FieldRow, 'id' | 'collection_id' | 'slug'>>): Promise<void> {
  await db.kysely.updateTable('fields').set(changes).where('id', '=', id).execute();
}

export async function deleteFieldRow(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('fields').where('id', '=', id).execute();
}

/** Marks the collection changed, so `updatedAt` and the schema version follow field changes. */
export async function touchCollection(db: Db, id: string, at: string): Promise<void> {
  await db.kysely.updateTable('collections').set({ updated_at: at }).where('id', '=', id).execute();
}
