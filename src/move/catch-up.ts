import { ensureEntryTables, queuePublications } from '../archive/restore.ts';
import { insertRows } from '../archive/store.ts';
import type { ArchivedTable } from '../archive/tables.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import { dropEntryTable, entryTableName } from '../db/entry-tables.ts';
import { withSnapshot, type Row, type Snapshot } from '../db/snapshot.ts';
import { compareKeys, entryTablesOf, keyedRows, type KeyedRow } from './rows.ts';
import { deleteRowsByKey, detachChildren } from './store.ts';

export interface TargetDatabase {
  db: Db;
  /** The target's SQLite file; undefined on PostgreSQL. */
  sqlitePath: string | undefined;
}

export interface CatchUpTotals {
  added: number;
  changed: number;
  deleted: number;
}

/** What differs in one table: the source's rows the target lacks or holds otherwise, and the target's rows the source no longer has. */
interface TableDifference {
  upserts: Row[];
  added: number;
  deletes: Row[];
}

/**
 * Brings the target to the source's snapshot, table by table in insert order (docs/decisions/0062):
 * both sides are read in key order and walked together, rows compared by their hash, so only what
 * differs is written. Per table, rows gone from the source go first (a slug freed by a deleted entry
 * may be taken by a new one), then the new and changed rows, one transaction. The target is read
 * afresh for each table: nothing else writes it, and a table made again here must be seen as it is now.
 */
export async function catchUp(source: Snapshot, target: TargetDatabase, tables: readonly ArchivedTable[], now: string): Promise<CatchUpTotals> {
  const totals: CatchUpTotals = { added: 0, changed: 0, deleted: 0 };
  const sourceEntryTables = await entryTablesOf(source);
  for (const table of tables) {
    const difference = await withSnapshot(target.db, target.sqlitePath, (current) => differenceOf(source, current, table));
    if (difference.upserts.length > 0 || difference.deletes.length > 0) {
      await inTransaction(target.db, async (tx) => {
        if (table.parent !== undefined) await detachChildren(tx, table.name, table.parent, difference.deletes.map((row) => row.id));
        await deleteRowsByKey(tx, table.name, table.key, difference.deletes);
        await insertRows(tx, table.name, parentsFirst(table, difference.upserts), { key: table.key, replace: true });
        if (sourceEntryTables.includes(table.name)) await queuePublications(tx, table.name, now);
      });
    }
    totals.added += difference.added;
    totals.changed += difference.upserts.length - difference.added;
    totals.deleted += difference.deletes.length;
    if (table.name === 'fields') await remakeEntryTables(target, sourceEntryTables, difference);
  }
  return totals;
}

async function differenceOf(source: Snapshot, target: Snapshot, table: ArchivedTable): Promise<TableDifference> {
  const difference: TableDifference = { upserts: [], added: 0, deletes: [] };
  const from = keyedRows(source, table);
  const to = keyedRows(target, table);
  let left = await from.next();
  let right = await to.next();
  while (!left.done || !right.done) {
    const order = left.done ? 1 : right.done ? -1 : compareKeys(left.value.key, right.value.key);
    if (order < 0) {
      difference.upserts.push((left.value as KeyedRow).row);
      difference.added += 1;
      left = await from.next();
    } else if (order > 0) {
      difference.deletes.push((right.value as KeyedRow).row);
      right = await to.next();
    } else {
      if (left.value!.hash !== right.value!.hash) difference.upserts.push(left.value!.row);
      [left, right] = [await from.next(), await to.next()];
    }
  }
  return difference;
}

/**
 * Entry tables follow the fields: a collection whose fields changed since the copy gets its entry
 * table made again as the schema makes it (its rows then all come over with it), a new collection
 * gets one, and a deleted collection's table goes.
 */
async function remakeEntryTables(target: TargetDatabase, sourceEntryTables: readonly string[], fields: TableDifference): Promise<void> {
  const changed = [...fields.upserts, ...fields.deletes].map((row) => entryTableName(String(row.collection_id)));
  const present = await withSnapshot(target.db, target.sqlitePath, async (current) => [...current.tables].filter((name) => name.startsWith(entryTableName(''))));
  const gone = present.filter((name) => !sourceEntryTables.includes(name));
  for (const table of new Set([...changed, ...gone])) await dropEntryTable(target.db, table);
  await ensureEntryTables(target.db, (name) => sourceEntryTables.includes(name));
}

/** A tree's new rows in an order the parent keys hold at each insert: each row after the new row it names. */
function parentsFirst(table: ArchivedTable, rows: Row[]): Row[] {
  if (table.parent === undefined) return rows;
  const parent = table.parent;
  const pending = new Map(rows.map((row) => [String(row.id), row]));
  const ordered: Row[] = [];
  const visit = (row: Row) => {
    if (!pending.delete(String(row.id))) return;
    const above = row[parent] == null ? undefined : pending.get(String(row[parent]));
    if (above !== undefined) visit(above);
    ordered.push(row);
  };
  for (const row of rows) visit(row);
  return ordered;
}
