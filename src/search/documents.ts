import { columnData, isLive, liveData } from '../content/entries.ts';
import type { EntryRow } from '../content/store.ts';
import type { SearchDocument, SearchVariant } from '../db/search-types.ts';
import { fieldType } from '../fields/registry.ts';
import type { LoadedCollection } from '../schema/store.ts';
import type { CollectionSchema } from '../schema/types.ts';
import type { FieldDefinition } from '../fields/definition.ts';
import { indexableText, titleKeys } from './text.ts';

/**
 * What the index holds of an entry (docs/decisions/0020): nothing outside the trash's reach or of a
 * collection without `search`; otherwise its live version (what readers search) and its working
 * version (what editors search with `status=draft`), one document when they are the same.
 */

/** Indexed text past this many characters is left out: PostgreSQL refuses a tsvector over 1 MB. */
const maxBodyLength = 200_000;

export function isSearchable(collection: Pick<CollectionSchema, 'supports'>): boolean {
  return collection.supports.includes('search');
}

/** The field results show as the title, and whose text (when searchable) weighs more: `title`, else `name`. */
export function titleField(fields: readonly FieldDefinition[]): FieldDefinition | undefined {
  return fields.find((field) => field.slug === 'title') ?? fields.find((field) => field.slug === 'name');
}

/** True when a change to this field's definition changes documents: it is searchable, or it is the title. */
export function shapesDocuments(fields: readonly FieldDefinition[], field: FieldDefinition): boolean {
  return field.searchable || titleField(fields)?.id === field.id;
}

/** The text of a value, for the types that have text to search. */
function textOf(field: FieldDefinition, value: unknown): string {
  if (value === null || value === undefined) return '';
  return fieldType(field.type).searchText?.(value) ?? '';
}

function documentOf(collection: LoadedCollection, row: EntryRow, variant: SearchVariant, values: Record<string, unknown>): SearchDocument {
  const title = titleField(collection.fields);
  const shown = title === undefined ? '' : textOf(title, values[title.slug]);
  const body = collection.fields
    .filter((field) => field.searchable && field !== title)
    .map((field) => textOf(field, values[field.slug]))
    .filter((text) => text !== '')
    .join('\n\n');
  return {
    entryId: row._id,
    variant,
    collectionId: collection.id,
    collection: collection.slug,
    locale: row._locale,
    slug: row._slug,
    title: indexableText(shown === '' ? row._slug : shown),
    titleText: title?.searchable ? indexableText(shown) : '',
    bodyText: indexableText(body.slice(0, maxBodyLength)),
  };
}

/** The documents of an entry as it now is. */
export function entryDocuments(collection: LoadedCollection, row: EntryRow): SearchDocument[] {
  if (!isSearchable(collection) || row._deleted_at !== null) return [];
  if (!isLive(row)) return [documentOf(collection, row, 'working', columnData(collection.fields, row))];
  if (row._live === null) return [documentOf(collection, row, 'both', columnData(collection.fields, row))];
  return [documentOf(collection, row, 'live', liveData(collection.fields, row)), documentOf(collection, row, 'working', columnData(collection.fields, row))];
}

/** The suggestion keys of documents: live titles only, since suggestions serve readers. */
export function titleKeyRows(documents: readonly SearchDocument[]): { title_key: string; entry_id: string; variant: string }[] {
  return documents
    .filter((document) => document.variant !== 'working' && document.titleText !== '')
    .flatMap((document) => titleKeys(document.title).map((key) => ({ title_key: key, entry_id: document.entryId, variant: document.variant })));
}
