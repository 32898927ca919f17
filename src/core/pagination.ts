import { z } from 'zod';
import { decodeCursor, encodeCursor } from './cursor.ts';

/** `limit` and `cursor` as every list takes them (DECISIONS §1: 1-100, else 400). */
export function pageQuery(defaultLimit: number, maxLimit = 100) {
  return {
    cursor: z.string().min(1).max(2048).optional().describe('Opaque cursor from the previous page'),
    limit: queryInteger(1, maxLimit, defaultLimit).describe(`Page size, 1-${maxLimit}`),
  };
}

/**
 * A whole number in a query string, written in plain digits (`1e1` or `0x10` are refused, which
 * Number() would take), within bounds; documented as an integer.
 */
export function queryInteger(min: number, max: number, defaultValue: number) {
  return z.preprocess(digitsOnly, z.coerce.number().int().min(min).max(max).default(defaultValue));
}

/** The same, without a default: absent stays undefined. */
export function optionalQueryInteger(min: number, max: number) {
  return z.preprocess(digitsOnly, z.coerce.number().int().min(min).max(max)).optional();
}

const digitsOnly = (value: unknown) => (typeof value === 'string' && !/^\d{1,9}$/.test(value) ? Number.NaN : value);

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only tells that another page exists, and
 * the cursor is made from the last row kept.
 */
export function toPage<Row, T>(rows: Row[], limit: number, cursorOf: (row: Row) => string, map: (row: Row) => T): Page<T> {
  const kept = rows.slice(0, limit);
  const page: Page<T> = { items: kept.map(map) };
  if (rows.length > limit && kept.length > 0) page.nextCursor = cursorOf(kept[kept.length - 1]!);
  return page;
}

/**
 * A page in the order of one unique text key (a slug, an id): the cursor carries the last key of the
 * page before, and `rowsAfter` reads the `limit + 1` rows that follow it.
 */
export async function pageByKey<Row, T>(
  input: { cursor?: string; limit: number },
  keyOf: (row: Row) => string,
  rowsAfter: (after: string | undefined) => Promise<Row[]>,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const after = input.cursor === undefined ? undefined : String(decodeCursor(input.cursor, 1)[0]);
  return toPage(await rowsAfter(after), input.limit, (row) => encodeCursor([keyOf(row)]), map);
}
