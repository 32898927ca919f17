import { createHash } from 'node:crypto';
import type { Snapshot } from '../db/snapshot.ts';
import type { ArchivedTable } from '../archive/tables.ts';
import { keyedRows } from './rows.ts';

/** One table on both sides of a move: how many rows, and whether their contents hash alike. */
export interface TableComparison {
  table: string;
  sourceRows: number;
  targetRows: number;
  same: boolean;
}

/**
 * Counts and a content hash per table on both sides (docs/decisions/0062): the hash runs over every
 * row's key and row hash in key order, so it is the same for the same rows on either engine.
 */
export async function compareSites(source: Snapshot, target: Snapshot, tables: readonly ArchivedTable[]): Promise<TableComparison[]> {
  const comparisons: TableComparison[] = [];
  for (const table of tables) {
    const [from, to] = [await digest(source, table), await digest(target, table)];
    comparisons.push({ table: table.name, sourceRows: from.rows, targetRows: to.rows, same: from.rows === to.rows && from.sha256 === to.sha256 });
  }
  return comparisons;
}

async function digest(snapshot: Snapshot, table: ArchivedTable): Promise<{ rows: number; sha256: string }> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const row of keyedRows(snapshot, table)) {
    hash.update(`${JSON.stringify(row.key)}\t${row.hash}\n`);
    rows += 1;
  }
  return { rows, sha256: hash.digest('hex') };
}

/** The comparison as the command prints it: one line a table, differing tables marked. */
export function comparisonLines(comparisons: readonly TableComparison[]): string[] {
  const width = Math.max(5, ...comparisons.map((row) => row.table.length));
  const line = (table: string, source: string, target: string, verdict: string) => `${table.padEnd(width)}  ${source.padStart(11)}  ${target.padStart(11)}  ${verdict}`;
  return [line('table', 'source rows', 'target rows', 'same/different'), ...comparisons.map((row) => line(row.table, String(row.sourceRows), String(row.targetRows), row.same ? 'same' : 'different'))];
}
