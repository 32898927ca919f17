import type { ColumnKind, SortKind } from '../db/entry-tables.ts';

/** How a type's values sit in their column: the storage engine never shows through on the wire. */
export interface Storage {
  /** What a value is in the column: itself (string, number), 0/1 (boolean) or JSON text. */
  encoding: 'string' | 'number' | 'boolean' | 'json';
  column: ColumnKind;
  /** How values compare in a sorted list, which gets an index to stay fast; absent: lists cannot be sorted by the field. */
  sort?: SortKind;
}

/** Short text, indexed for sorted lists. */
export const sortedText: Storage = { encoding: 'string', column: 'text', sort: 'text' };

/** Text that lists are not sorted by (long, or meaningless to order). */
export const unsortedText: Storage = { encoding: 'string', column: 'text' };

/** Structured values, kept as JSON text. */
export const jsonText: Storage = { encoding: 'json', column: 'text' };
