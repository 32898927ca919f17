import { validationError } from './errors.ts';

/**
 * Keyset cursors: the sort key values of the last row of a page, as opaque base64url JSON. A cursor
 * that does not decode to the expected shape is a 400, never a 500.
 */
export function encodeCursor(values: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, arity: number): (string | number | null)[] {
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(values) &&
      values.length === arity &&
      values.every((value) => value === null || (typeof value === 'string' && !value.includes('\0')) || typeof value === 'number')
    ) {
      return values as (string | number | null)[];
    }
  } catch {
    // falls through to the validation error below
  }
  throw validationError([{ path: 'cursor', message: 'Malformed cursor' }]);
}
