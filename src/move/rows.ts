import { createHash } from 'node:crypto';
import type { Row, Snapshot } from '../db/snapshot.ts';
import { entryTables, entryUserColumns, recordTables, secretTables, type ArchivedTable } from '../archive/tables.ts';

/**
 * What a move copies and compares (docs/decisions/0062): the archive's tables in its insert order
 * (0061), the password-equivalents too (the same site goes on, its people stay signed in), with
 * every collection's entry table where the archive puts them.
 */
export function movedTables(entryTableNames: readonly string[]): ArchivedTable[] {
  return [...recordTables, ...secretTables].flatMap((table) =>
    table === entryTables ? entryTableNames.map((name): ArchivedTable => ({ name, key: ['_id'], userColumns: entryUserColumns })) : [table],
  );
}

/** The entry tables of the site a snapshot reads, by its collections. */
export async function entryTablesOf(snapshot: Snapshot): Promise<string[]> {
  const names: string[] = [];
  for await (const batch of snapshot.rows('collections')) for (const row of batch) names.push(String(row.table_name));
  return names.sort();
}

/** A row with its key (each column's value: text, or a number) and the hash of its content. */
export interface KeyedRow {
  key: (string | number)[];
  hash: string;
  row: Row;
}

/**
 * The row's content as one text, the same whichever engine it was read from: columns by name (their
 * order in a table differs when columns were added over time), and the few values the drivers give
 * in other shapes made alike (PostgreSQL booleans, bytes, dates; SQLite big integers).
 */
export function rowText(row: Row, columns: readonly string[] = Object.keys(row).sort()): string {
  return JSON.stringify(columns.map((column) => [column, portable(row[column])]));
}

function portable(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64');

/** The table's rows in key order (the order `orderBy` reads on both engines: text byte by byte, numbers as numbers), each keyed and hashed. */
export async function* keyedRows(snapshot: Snapshot, table: ArchivedTable): AsyncGenerator<KeyedRow> {
  if (!snapshot.tables.has(table.name)) return;
  let columns: string[] | undefined;
  for await (const batch of snapshot.rows(table.name, { orderBy: table.key })) {
    for (const row of batch) {
      columns ??= Object.keys(row).sort();
      yield { key: table.key.map((column) => keyValue(row[column])), hash: hashOf(rowText(row, columns)), row };
    }
  }
}

function keyValue(value: unknown): string | number {
  if (typeof value === 'number' || typeof value === 'string') return value;
  return String(portable(value));
}

/** Orders keys as the databases do: column by column, numbers as numbers, text by its UTF-8 bytes. */
export function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let index = 0; index < a.length; index += 1) {
    const left = a[index]!;
    const right = b[index]!;
    if (left === right) continue;
    if (typeof left === 'number' && typeof right === 'number') return left - right;
    return Buffer.compare(Buffer.from(String(left)), Buffer.from(String(right)));
  }
  return 0;
}
