import type { ContentCollection, Entry, Field } from '../../api/client';
import { entryTitle, titleFieldOf } from '../../entries';
import type { MessageId } from '../../i18n/en';

/** The field types a list may be sorted by (the API's sortable types, src/schema/types.ts). */
const sortableTypes: ReadonlySet<Field['type']> = new Set(['string', 'number', 'integer', 'boolean', 'datetime', 'select', 'slug']);
/** Types worth a column: short values that read in one line. */
const columnTypes: ReadonlySet<Field['type']> = new Set([...sortableTypes, 'multiSelect']);
const extraColumns = 2;

export interface Column {
  id: string;
  /** A message id, or a field's own label. */
  label: { message: MessageId } | { text: string };
  /** What `orderBy` sorts it by, when the API can. */
  sortKey?: string;
  value: (entry: Entry) => string;
  kind: 'title' | 'status' | 'date' | 'text';
}

function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/**
 * A list's columns, chosen from the collection's fields: the title, the status, the first few short
 * fields, and when it last changed (in the trash: when it was deleted). Sorting follows what the API
 * sorts by; the trash has one order.
 */
export function columnsFor(collection: ContentCollection, { trash }: { trash: boolean }): Column[] {
  const columns = trash ? listColumns(collection).map(({ sortKey: _unsorted, ...column }): Column => column) : listColumns(collection);
  if (!trash) return columns;
  return [...columns.slice(0, -1), { id: 'deletedAt', label: { message: 'column.deletedAt' }, value: (entry) => entry.deletedAt ?? '', kind: 'date' }];
}

function listColumns(collection: ContentCollection): Column[] {
  const titleField = collection.fields.find((field) => field.slug === titleFieldOf(collection));
  const fields = collection.fields.filter((field) => field !== titleField && columnTypes.has(field.type)).slice(0, extraColumns);
  return [
    {
      id: 'title',
      label: titleField ? { text: titleField.label } : { message: 'column.slug' },
      sortKey: titleField && sortableTypes.has(titleField.type) ? titleField.slug : 'slug',
      value: (entry) => entryTitle(collection, entry),
      kind: 'title',
    },
    { id: 'status', label: { message: 'column.status' }, value: (entry) => entry.status, kind: 'status' },
    ...fields.map(
      (field): Column => ({
        id: `field:${field.slug}`,
        label: { text: field.label },
        ...(sortableTypes.has(field.type) ? { sortKey: field.slug } : {}),
        value: (entry) => fieldText(entry.data[field.slug]),
        kind: field.type === 'datetime' ? 'date' : 'text',
      }),
    ),
    { id: 'updatedAt', label: { message: 'column.updatedAt' }, sortKey: 'updatedAt', value: (entry) => entry.updatedAt, kind: 'date' },
  ];
}
