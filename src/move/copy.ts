import { ensureEntryTables, queuePublications } from '../archive/restore.ts';
import { insertRows } from '../archive/store.ts';
import type { ArchivedTable } from '../archive/tables.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import type { Snapshot } from '../db/snapshot.ts';

export interface CopyTotals {
  tables: number;
  rows: number;
}

/**
 * Copies every table from the source's snapshot into the empty target, table by table in the
 * archive's insert order (parents before children), each batch the snapshot reads in a transaction
 * of its own: no table is held whole. Entry tables are made once the fields are in, as a restore
 * makes them, and scheduled entries get their publication jobs (jobs are not copied).
 */
export async function copyTables(source: Snapshot, target: Db, tables: readonly ArchivedTable[], entryTableNames: readonly string[], now: string): Promise<CopyTotals> {
  let rows = 0;
  for (const table of tables) {
    for await (const batch of source.rows(table.name, { parent: table.parent })) {
      await inTransaction(target, (tx) => insertRows(tx, table.name, batch, { key: table.key, replace: table.replaces === true }));
      rows += batch.length;
    }
    if (table.name === 'fields') await ensureEntryTables(target, (name) => entryTableNames.includes(name));
    if (entryTableNames.includes(table.name)) await inTransaction(target, (tx) => queuePublications(tx, table.name, now));
  }
  return { tables: tables.length, rows };
}
