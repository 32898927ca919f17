import type { ContentCollection, Entry, Field } from '../../api/client';
import { entryTitle, titleFieldOf } from '../../entries';
import type { MessageId } from '../../i18n/en';
import type { Translate } from '../../i18n/i18n';

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
  kind: 'title' | 'status' | 'date' | 'text' | 'locale';
}

/** A column's heading: a message of the panel's, or the field's own label. */
export function columnLabel(column: Column, t: Translate): string {
  return 'message' in column.label ? t(column.label.message) : column.label.text;
}

/** Each column's share of the row, by what it holds. */
const widths: Record<Column['kind'], string> = { title: 'minmax(12rem, 3fr)', status: '8rem', date: '13.5rem', text: 'minmax(8rem, 1fr)', locale: '6rem' };

/** The CSS grid template of a row of these columns. */
export function gridTemplate(columns: readonly Column[]): string {
  return columns.map((column) => widths[column.kind]).join(' ');
}

function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** The title column: always first, never hidden, so it is not among the choices or in the URL. */
const titleColumnId = '#title';

/**
 * Every column a list of the collection can show: the title, the status, each field with short values,
 * and the entry's dates. Field ids are their slugs; the others cannot be field slugs (`status` is
 * reserved, field slugs have no capital letters).
 */
export function availableColumns(collection: ContentCollection): Column[] {
  const titleField = collection.fields.find((field) => field.slug === titleFieldOf(collection));
  return [
    {
      id: titleColumnId,
      label: titleField ? { text: titleField.label } : { message: 'column.slug' },
      sortKey: titleField && sortableTypes.has(titleField.type) ? titleField.slug : 'slug',
      value: (entry) => entryTitle(collection, entry),
      kind: 'title',
    },
    { id: 'status', label: { message: 'column.status' }, value: (entry) => entry.status, kind: 'status' },
    ...collection.fields
      .filter((field) => field !== titleField && columnTypes.has(field.type))
      .map(
        (field): Column => ({
          id: field.slug,
          label: { text: field.label },
          ...(sortableTypes.has(field.type) ? { sortKey: field.slug } : {}),
          value: (entry) => fieldText(entry.data[field.slug]),
          kind: field.type === 'datetime' ? 'date' : 'text',
        }),
      ),
    { id: 'updatedAt', label: { message: 'column.updatedAt' }, sortKey: 'updatedAt', value: (entry) => entry.updatedAt, kind: 'date' },
    { id: 'createdAt', label: { message: 'column.createdAt' }, sortKey: 'createdAt', value: (entry) => entry.createdAt, kind: 'date' },
    { id: 'publishedAt', label: { message: 'column.publishedAt' }, sortKey: 'publishedAt', value: (entry) => entry.publishedAt ?? '', kind: 'date' },
  ];
}

/** Which columns a list shows when its URL does not say: the status, the first few short fields, the last change. */
export function defaultColumnIds(collection: ContentCollection): string[] {
  const fields = availableColumns(collection).filter((column) => column.id !== titleColumnId && column.kind !== 'status' && !column.id.endsWith('At'));
  return ['status', ...fields.slice(0, extraColumns).map((column) => column.id), 'updatedAt'];
}

/** The columns the list offers to show or hide: all but the title. */
export function optionalColumns(collection: ContentCollection): Column[] {
  return availableColumns(collection).filter((column) => column.id !== titleColumnId);
}

/** Each entry's locale, shown right after the title while a multilingual site's list shows every locale. */
const localeColumn: Column = { id: '#locale', label: { message: 'column.locale' }, value: (entry) => entry.locale, kind: 'locale' };

/**
 * The columns shown: the title (and the locale, with `allLocales`), then those chosen, in the order
 * they are offered (an unknown id, from a link made before a field was removed, is left out). In the
 * trash nothing sorts (it has one order) and the last change gives way to when the entry was deleted.
 */
export function shownColumns(collection: ContentCollection, chosen: readonly string[], { trash, allLocales }: { trash: boolean; allLocales: boolean }): Column[] {
  const [title, ...rest] = availableColumns(collection).filter((column) => column.id === titleColumnId || chosen.includes(column.id));
  const shown = [title!, ...(allLocales ? [localeColumn] : []), ...rest];
  if (!trash) return shown;
  return [
    ...shown.filter((column) => column.kind !== 'date').map(({ sortKey: _unsorted, ...column }): Column => column),
    { id: 'deletedAt', label: { message: 'column.deletedAt' }, value: (entry) => entry.deletedAt ?? '', kind: 'date' },
  ];
}

/**
 * The columns of a search's matches: /search answers each with its title and the passage that
 * matched, not the entry's values, so the other columns have nothing to show; nothing sorts (best
 * match first).
 */
export function searchColumns(collection: ContentCollection): Column[] {
  const { sortKey: _unsorted, ...title } = availableColumns(collection)[0]!;
  return [title, { id: 'match', label: { message: 'list.match' }, value: () => '', kind: 'text' }];
}
