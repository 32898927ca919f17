import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { AppError, notFound, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { roles } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, isUniqueViolation } from '../db/dialect.ts';
import { createEntryTable, dropEntryTable, dropFieldColumn, entryTableHasRows, entryTableName, setColumnKind, setFieldIndexes } from '../db/entry-tables.ts';
import { columnValues, countValues, existingIds } from '../content/store.ts';
import { columnKind, fromColumnValue, sortKind } from '../fields/columns.ts';
import { fieldTypes } from '../fields/names.ts';
import { fieldType } from '../fields/registry.ts';
import { checkFieldValue, defaultValueFor, isBlankValue } from '../fields/values.ts';
import { isSearchable, shapesDocuments, titleField } from '../search/documents.ts';
import { reindexCollection } from '../search/indexer.ts';
import { mediaNamingTypes } from '../core/media-references.ts';
import { deleteFieldUsage } from '../media/usage-store.ts';
import { markCollectionTargetsMissing } from '../redirects/store.ts';
import { fieldDefinitionIssues, rulesForType, typeChangeProblem } from './field-rules.ts';
import { collectionsWithFields, lockCollection, requireCollection } from './lookup.ts';
import type { CreateCollectionBody, CreateFieldBody, FieldTypeSchema, ReorderFieldsBody, UpdateCollectionBody, UpdateFieldBody } from './schemas.ts';
import * as store from './store.ts';
import { addFieldStorage } from './storage.ts';
import type { FieldDefinition } from '../fields/definition.ts';
import { maxFieldsPerCollection, type CollectionDefinition, type CollectionSchema } from './types.ts';

const schemaRead = access.scope('schema:read', { minRole: roles.editor });
const schemaWrite = access.scope('schema:write', { minRole: roles.admin });

/** The API's own path words and `id` (DECISIONS §4). */
const reservedCollectionSlugs = new Set([
  'content', 'media', 'schema', 'search', 'sections', 'settings', 'menus', 'taxonomies', 'widget_areas', 'users', 'admin',
  'auth', 'import', 'plugins', 'revisions', 'mcp', 'oauth', 'setup', 'id',
]);

/**
 * The item's own keys and system timestamps (DECISIONS §4), and the engines' own column names
 * (PostgreSQL's system columns, SQLite's rowid aliases), the same on both so a schema works on either.
 */
const reservedFieldSlugs = new Set([
  'id', 'type', 'slug', 'status', 'data', 'locale', 'version', 'rev', 'created_at', 'updated_at', 'published_at', 'scheduled_at', 'deleted_at',
  'oid', 'rowid', 'xmin', 'xmax', 'cmin', 'cmax', 'ctid', 'tableoid',
]);

type CollectionItem = { item: CollectionDefinition & { entries?: number; fields?: (FieldDefinition & { values?: number })[] } };
type FieldItem = { item: FieldDefinition };
type FieldList = { items: FieldDefinition[] };

function requireField(collection: CollectionSchema, slug: string): FieldDefinition {
  const field = collection.fields.find((candidate) => candidate.slug === slug);
  if (!field) throw notFound(`Field ${slug} of collection ${collection.slug}`);
  return field;
}

function withoutTable({ tableName: _table, ...collection }: store.LoadedCollection): CollectionSchema {
  return collection;
}

export const listCollections = defineOperation({
  name: 'schema.listCollections',
  access: schemaRead,
  async run(ctx): Promise<{ items: CollectionDefinition[] }> {
    return { items: (await store.listCollectionRows(ctx.db)).map(store.toCollection) };
  },
});

export const getCollection = defineOperation({
  name: 'schema.getCollection',
  access: schemaRead,
  async run(ctx, input: { slug: string; includeFields?: boolean; counts?: boolean }): Promise<CollectionItem> {
    const loaded = await requireCollection(ctx.db, input.slug);
    const { fields, ...collection } = withoutTable(loaded);
    if (!input.counts) return { item: input.includeFields ? { ...collection, fields } : collection };
    const { entries, values } = await countValues(ctx.db, loaded.tableName, fields.map((field) => field.slug));
    const counted = { ...collection, entries };
    return { item: input.includeFields ? { ...counted, fields: fields.map((field, index) => ({ ...field, values: values[index]! })) } : counted };
  },
});

export const createCollection = defineOperation({
  name: 'schema.createCollection',
  access: schemaWrite,
  async run(ctx, input: z.output<typeof CreateCollectionBody>): Promise<CollectionItem> {
    if (reservedCollectionSlugs.has(input.slug)) {
      throw new AppError('RESERVED_SLUG', `The collection slug ${input.slug} is reserved`, { issues: [{ path: 'slug', message: 'Reserved' }] });
    }
    const now = isoNow(ctx.clock);
    const id = newId();
    const row: store.CollectionRow = {
      id,
      slug: input.slug,
      label: input.label,
      label_singular: input.labelSingular ?? null,
      description: input.description ?? null,
      icon: input.icon ?? null,
      supports: JSON.stringify(input.supports ?? ['drafts', 'revisions']),
      table_name: entryTableName(id),
      url_pattern: input.urlPattern ?? null,
      comments: input.comments ? JSON.stringify(input.comments) : null,
      created_at: now,
      updated_at: now,
    };
    await uniqueSlug(`A collection with slug ${input.slug} already exists`, () =>
      inTransaction(ctx.db, async (db) => {
        await store.insertCollection(db, row);
        await createEntryTable(db, row.table_name);
      }),
    );
    return { item: store.toCollection(row) };
  },
});

export const updateCollection = defineOperation({
  name: 'schema.updateCollection',
  access: schemaWrite,
  async run(ctx, input: { slug: string } & z.output<typeof UpdateCollectionBody>): Promise<CollectionItem> {
    return inTransaction(ctx.db, async (db) => {
      const existing = await store.lockCollectionRow(db, input.slug, 'update');
      if (!existing) throw notFound(`Collection ${input.slug}`);
      const changes: Partial<store.CollectionRow> = { updated_at: isoNow(ctx.clock) };
      if (input.label !== undefined) changes.label = input.label;
      if (input.labelSingular !== undefined) changes.label_singular = input.labelSingular;
      if (input.description !== undefined) changes.description = input.description;
      if (input.icon !== undefined) changes.icon = input.icon;
      if (input.supports !== undefined) changes.supports = JSON.stringify(input.supports);
      if (input.urlPattern !== undefined) changes.url_pattern = input.urlPattern;
      if (input.comments !== undefined) changes.comments = input.comments ? JSON.stringify(input.comments) : null;
      await store.updateCollectionRow(db, existing.id, changes);
      const updated = store.toCollection({ ...existing, ...changes });
      // The index follows `search` being added or removed, in this transaction (decisions/0020).
      if (isSearchable(updated) !== isSearchable(store.toCollection(existing))) await reindexCollection(db, await requireCollection(db, input.slug));
      return { item: updated };
    });
  },
});

export const deleteCollection = defineOperation({
  name: 'schema.deleteCollection',
  access: schemaWrite,
  async run(ctx, input: { slug: string; force?: boolean }): Promise<{ success: true }> {
    return inTransaction(ctx.db, async (db) => {
      const existing = await store.lockCollectionRow(db, input.slug, 'update');
      if (!existing) throw notFound(`Collection ${input.slug}`);
      // A reference field of another collection would point at nothing; it must go first.
      const referencing = (await store.listReferenceFields(db))
        .filter((field) => field.target === existing.slug && field.collection !== existing.slug)
        .map((field) => `${field.collection}.${field.slug}`);
      if (referencing.length > 0) {
        throw new AppError('SCHEMA_ERROR', `Collection ${input.slug} is the target of reference fields (${referencing.join(', ')}); delete or change them first`, {
          reason: 'referenced',
          fields: referencing,
        });
      }
      if (!input.force && (await entryTableHasRows(db, existing.table_name))) {
        throw new AppError('SCHEMA_ERROR', `Collection ${input.slug} has content; pass force=true to delete it with its content`, { reason: 'has_content' });
      }
      // Fields, revisions, schedules and search documents go with the row (foreign keys cascade).
      await store.deleteCollectionRow(db, existing.id);
      await dropEntryTable(db, existing.table_name);
      await markCollectionTargetsMissing(db, existing.slug);
      return { success: true as const };
    });
  },
});

export const listFields = defineOperation({
  name: 'schema.listFields',
  access: schemaRead,
  async run(ctx, input: { slug: string }): Promise<FieldList> {
    return { items: (await requireCollection(ctx.db, input.slug)).fields };
  },
});

export const createField = defineOperation({
  name: 'schema.createField',
  access: schemaWrite,
  async run(ctx, input: { collection: string } & z.output<typeof CreateFieldBody>): Promise<FieldItem> {
    if (reservedFieldSlugs.has(input.slug)) {
      throw new AppError('RESERVED_SLUG', `The field slug ${input.slug} is reserved`, { issues: [{ path: 'slug', message: 'Reserved' }] });
    }
    const definition = {
      type: input.type,
      required: input.required ?? false,
      unique: input.unique ?? false,
      defaultValue: input.defaultValue,
      validation: input.validation ?? {},
      options: input.options ?? {},
    };
    await assertValidDefinition(ctx, definition);
    // Stored as entries will receive it (a date-time in UTC, Markdown as Portable Text).
    definition.defaultValue = defaultValueFor(definition);
    return uniqueSlug(`Collection ${input.collection} already has a field ${input.slug}`, () =>
      inTransaction(ctx.db, async (db) => {
        const collection = await lockCollection(db, input.collection, 'update');
        if (collection.fields.some((field) => field.slug === input.slug)) {
          throw new AppError('DUPLICATE_SLUG', `Collection ${input.collection} already has a field ${input.slug}`);
        }
        if (collection.fields.length >= maxFieldsPerCollection) {
          throw validationError(
            [{ path: 'slug', message: `A collection has at most ${maxFieldsPerCollection} fields` }],
            `Collection ${input.collection} already has ${maxFieldsPerCollection} fields, the most a collection may have`,
          );
        }
        const now = isoNow(ctx.clock);
        const field: FieldDefinition = {
          id: newId(),
          slug: input.slug,
          label: input.label,
          ...definition,
          searchable: input.searchable ?? false,
          translatable: input.translatable ?? true,
          sortOrder: collection.fields.reduce((highest, existing) => Math.max(highest, existing.sortOrder + 1), 0),
          createdAt: now,
          updatedAt: now,
        };
        if (field.defaultValue === undefined) delete field.defaultValue;
        await store.insertField(db, store.toFieldRow(field, collection.id));
        await addFieldStorage(db, collection.tableName, field);
        await store.touchCollection(db, collection.id, now);
        // A new `title` field takes over from `name` as the title results show.
        if (isSearchable(collection) && titleField([...collection.fields, field]) === field) await reindexCollection(db, await requireCollection(db, collection.slug));
        return { item: field };
      }),
    );
  },
});

export const updateField = defineOperation({
  name: 'schema.updateField',
  access: schemaWrite,
  async run(ctx, input: { collectionSlug: string; fieldSlug: string } & z.output<typeof UpdateFieldBody>): Promise<FieldItem> {
    return inTransaction(ctx.db, async (db) => {
      const collection = await lockCollection(db, input.collectionSlug, 'update');
      const field = requireField(collection, input.fieldSlug);
      const next: FieldDefinition = {
        ...field,
        label: input.label ?? field.label,
        type: input.type ?? field.type,
        required: input.required ?? field.required,
        unique: input.unique ?? field.unique,
        validation: input.validation ?? field.validation,
        options: input.options ?? field.options,
        searchable: input.searchable ?? field.searchable,
        translatable: input.translatable ?? field.translatable,
        updatedAt: isoNow(ctx.clock),
      };
      if (input.defaultValue === null) delete next.defaultValue;
      else if (input.defaultValue !== undefined) next.defaultValue = input.defaultValue;
      if (next.type !== field.type) {
        const problem = typeChangeProblem(field.type, next.type);
        if (problem) throw new AppError('SCHEMA_ERROR', `Field ${field.slug}: ${problem}`, { reason: 'type_change' });
        const kept = rulesForType(next.type, next.validation, next.options);
        if (input.validation === undefined) next.validation = kept.validation;
        if (input.options === undefined) next.options = kept.options;
        if (columnKind(next.type) !== columnKind(field.type)) await setColumnKind(db, collection.tableName, field.slug, columnKind(next.type));
      }
      await assertValidDefinition({ ...ctx, db }, next);
      if (next.defaultValue !== undefined) next.defaultValue = defaultValueFor(next);
      if (next.type !== field.type || next.required !== field.required || JSON.stringify(next.validation) !== JSON.stringify(field.validation)) {
        await assertStoredValuesFit(db, collection.tableName, field, next);
      }
      if (pointsAtEntries(next) && pointsAtEntries(field) && next.options.collection !== field.options.collection) {
        const held = (await columnValues(db, collection.tableName, field.slug)).filter(({ value }) => value !== null);
        if (held.length > 0) {
          throw new AppError('SCHEMA_ERROR', `${held.length} entries hold references to ${field.options.collection ?? 'another collection'}; clear them before pointing ${field.slug} elsewhere`, {
            reason: 'values_do_not_fit',
            entries: held.slice(0, 20).map(({ slug }) => slug),
          });
        }
      }
      const { id: _id, collection_id: _collection, slug: _slug, created_at: _created, ...changes } = store.toFieldRow(next, collection.id);
      await store.updateFieldRow(db, field.id, changes);
      // A new sort kind changes the live sort index's expression (decisions/0007), not only whether there is one.
      if (next.unique !== field.unique || sortKind(next.type) !== sortKind(field.type)) {
        try {
          await setFieldIndexes(db, collection.tableName, field.slug, field.id, { sort: sortKind(next.type), unique: next.unique });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          throw new AppError('SCHEMA_ERROR', `Field ${field.slug} cannot become unique: existing entries share a value`, { reason: 'not_unique' });
        }
      }
      await store.touchCollection(db, collection.id, next.updatedAt);
      // image and file name items alike; to json, the values no longer name any (decisions/0045).
      if (mediaNamingTypes.has(field.type) && !mediaNamingTypes.has(next.type)) await deleteFieldUsage(db, field.id);
      const reindex = next.searchable !== field.searchable || (next.type !== field.type && shapesDocuments(collection.fields, field));
      if (isSearchable(collection) && reindex) await reindexCollection(db, await requireCollection(db, collection.slug));
      return { item: next };
    });
  },
});

export const deleteField = defineOperation({
  name: 'schema.deleteField',
  access: schemaWrite,
  async run(ctx, input: { collectionSlug: string; fieldSlug: string }): Promise<{ success: true }> {
    return inTransaction(ctx.db, async (db) => {
      const collection = await lockCollection(db, input.collectionSlug, 'update');
      const field = requireField(collection, input.fieldSlug);
      await store.deleteFieldRow(db, field.id);
      await dropFieldColumn(db, collection.tableName, field.slug, field.id);
      await deleteFieldUsage(db, field.id);
      await store.touchCollection(db, collection.id, isoNow(ctx.clock));
      if (isSearchable(collection) && shapesDocuments(collection.fields, field)) await reindexCollection(db, await requireCollection(db, collection.slug));
      return { success: true as const };
    });
  },
});

export const reorderFields = defineOperation({
  name: 'schema.reorderFields',
  access: schemaWrite,
  async run(ctx, input: { slug: string } & z.output<typeof ReorderFieldsBody>): Promise<FieldList> {
    return inTransaction(ctx.db, async (db) => {
      const collection = await lockCollection(db, input.slug, 'update');
      const known = new Set(collection.fields.map((field) => field.slug));
      const given = new Set(input.fieldSlugs);
      if (given.size !== input.fieldSlugs.length || given.size !== known.size || input.fieldSlugs.some((slug) => !known.has(slug))) {
        throw validationError([{ path: 'fieldSlugs', message: `Must list every field of ${input.slug} exactly once: ${[...known].join(', ')}` }]);
      }
      const now = isoNow(ctx.clock);
      const bySlug = new Map(collection.fields.map((field) => [field.slug, field]));
      const items = input.fieldSlugs.map((slug, index) => ({ ...bySlug.get(slug)!, sortOrder: index, updatedAt: now }));
      for (const field of items) await store.updateFieldRow(db, field.id, { sort_order: field.sortOrder, updated_at: now });
      await store.touchCollection(db, collection.id, now);
      return { items };
    });
  },
});

/**
 * A field's definition may only change in ways its stored values still satisfy (DECISIONS §4): every
 * entry's value, trashed ones included, is checked against the new definition.
 */
async function assertStoredValuesFit(db: Db, table: string, before: FieldDefinition, after: FieldDefinition): Promise<void> {
  const misfits: string[] = [];
  for (const { slug, value: stored } of await columnValues(db, table, before.slug)) {
    const value = fromColumnValue(before, stored);
    const fits = value === null ? !after.required : !(after.required && isBlankValue(after.type, value)) && checkFieldValue(after, value).ok;
    if (!fits) misfits.push(slug);
  }
  if (misfits.length > 0) {
    const examples = misfits.slice(0, 5).join(', ');
    throw new AppError('SCHEMA_ERROR', `${misfits.length} entries hold values of ${after.slug} that the new definition refuses (${examples}${misfits.length > 5 ? ', …' : ''})`, {
      reason: 'values_do_not_fit',
      entries: misfits.slice(0, 20),
    });
  }
}

/** Reference fields: their values are ids of entries of `options.collection`. */
function pointsAtEntries(field: Pick<FieldDefinition, 'type'>): boolean {
  return fieldType(field.type).pointsAt === 'entry';
}

/** Field definition rules, plus the one that needs the database: a reference's target must exist. */
async function assertValidDefinition(
  ctx: Pick<AuthorizedContext, 'db'>,
  definition: Pick<FieldDefinition, 'type' | 'required' | 'unique' | 'defaultValue' | 'validation' | 'options'>,
): Promise<void> {
  const issues = fieldDefinitionIssues(definition);
  const targetSlug = definition.options.collection;
  const target = pointsAtEntries(definition) && targetSlug !== undefined ? await store.loadCollection(ctx.db, targetSlug) : undefined;
  if (pointsAtEntries(definition) && targetSlug !== undefined && !target) issues.push({ path: 'options.collection', message: `No collection ${targetSlug}` });
  // A default reference must name an entry that exists, or every entry created without the field would be refused.
  const defaultId = definition.defaultValue;
  if (target && typeof defaultId === 'string' && !(await existingIds(ctx.db, target.tableName, [defaultId])).has(defaultId)) {
    issues.push({ path: 'defaultValue', message: `No entry ${defaultId} in ${targetSlug}` });
  }
  if (issues.length > 0) throw validationError(issues);
}

/** A racing writer that took the slug first surfaces as the database's unique violation. */
async function uniqueSlug<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('DUPLICATE_SLUG', message);
    throw error;
  }
}

export const listFieldTypes = defineOperation({
  name: 'schema.listFieldTypes',
  access: schemaRead,
  async run(): Promise<{ items: z.output<typeof FieldTypeSchema>[] }> {
    const items = fieldTypes.map((type) => {
      const definition = fieldType(type);
      return {
        type,
        widget: definition.widget,
        validation: [...definition.validation],
        options: [...definition.options],
        unique: definition.unique,
        sortable: definition.storage.sort !== undefined,
        searchable: definition.searchText !== undefined,
        changesTo: [...definition.changesTo],
      };
    });
    return { items };
  },
});


export const exportSchema = defineOperation({
  name: 'schema.export',
  access: schemaRead,
  async run(ctx): Promise<{ collections: CollectionSchema[]; version: string }> {
    const collections = await collectionsWithFields(ctx.db);
    return { collections, version: createHash('sha256').update(JSON.stringify(collections)).digest('base64url').slice(0, 16) };
  },
});
