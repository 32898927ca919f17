import { RawJson } from '../core/raw-json.ts';
import type { ColumnKind, SortKind } from '../db/entry-tables.ts';
import type { FieldType } from './names.ts';
import type { FieldDefinition } from './definition.ts';
import { fieldType } from './registry.ts';

/** Field values to and from the entry table's columns (docs/decisions/0005). */

export function columnKind(type: FieldType): ColumnKind {
  return fieldType(type).storage.column;
}

/** How a field's values compare in a sorted list; undefined for types lists cannot be sorted by. */
export function sortKind(type: FieldType): SortKind | undefined {
  return fieldType(type).storage.sort;
}

/** A checked value as its column holds it. */
export function toColumnValue(field: Pick<FieldDefinition, 'type'>, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  const { encoding } = fieldType(field.type).storage;
  if (encoding === 'json') return JSON.stringify(value);
  if (encoding === 'boolean') return value === true ? 1 : 0;
  if (typeof value === encoding) return value as string | number;
  // Values reach here only through checkFieldValue, so this is a caller's bug, not bad input.
  throw new TypeError(`A ${field.type} value must be a ${encoding}, got ${typeof value}`);
}

/** A column's content for a response only: JSON text goes out as stored, without a parse (core/raw-json.ts). */
export function responseColumnValue(field: Pick<FieldDefinition, 'type'>, stored: unknown): unknown {
  if (stored !== null && stored !== undefined && fieldType(field.type).storage.encoding === 'json') return new RawJson(String(stored));
  return fromColumnValue(field, stored);
}

/** A column's content as the API shows it. */
export function fromColumnValue(field: Pick<FieldDefinition, 'type'>, stored: unknown): unknown {
  if (stored === null || stored === undefined) return null;
  switch (fieldType(field.type).storage.encoding) {
    case 'json':
      return JSON.parse(String(stored));
    case 'boolean':
      return Number(stored) !== 0;
    case 'number':
      // A driver may hand back a bigint or a numeric string; the wire always gets a number.
      return Number(stored);
    case 'string':
      return String(stored);
  }
}
