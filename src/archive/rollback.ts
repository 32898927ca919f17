import type { Db } from '../db/connection.ts';
import { clearSchedule } from '../content/schedule-store.ts';
import { inTransaction } from '../db/dialect.ts';
import { dropEntryTable, tableExists } from '../db/entry-tables.ts';
import type { Row } from '../db/snapshot.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import * as store from './store.ts';
import { entryTables, recordTables, secretTables, type ArchivedTable } from './tables.ts';

/**
 * What the target had before a restore that is not a merge (docs/decisions/0061), kept in the
 * restore's progress row so that a failed restore, even one resumed after a kill, puts the target back
 * as it was. Such a target is an empty site: a fresh install's few rows (its admin, their sign-in,
 * settings, plugin states, audit events), so this stays small.
 */
export interface KeptTarget {
  /** The keys of each table that had rows (the archive adds rows beside them, changing none): what stays. */
  keys: Record<string, string[]>;
  /** The rows of each table whose rows the archive's replace (settings, plugin states): what goes back. */
  rows: Record<string, Row[]>;
}

/** Users are kept by the progress row's `kept_users`, which a merge needs too. */
const keptApart = new Set(['users']);

const tablesInOrder = (): ArchivedTable[] => [...recordTables.filter((table): table is ArchivedTable => table !== entryTables), ...secretTables];

/** Every table a fresh install writes has a one-column key: that column is what is kept. */
const keyColumn = (table: ArchivedTable): string => table.key[0]!;

export async function keepTarget(db: Db): Promise<KeptTarget> {
  const kept: KeptTarget = { keys: {}, rows: {} };
  const tables = tablesInOrder().filter((table) => !keptApart.has(table.name));
  const occupied = new Set(await store.tablesWithRows(db, tables.map((table) => table.name)));
  for (const table of tables) {
    if (!occupied.has(table.name)) continue;
    if (table.replaces === true) kept.rows[table.name] = await store.allRows(db, table.name);
    else kept.keys[table.name] = await store.columnValues(db, table.name, keyColumn(table));
  }
  return kept;
}

/**
 * Puts the target back as `kept` says it was: the media files and entry tables the restore made go
 * (with the publications it queued), every archived table keeps only the rows it had, and the rows the
 * archive replaced are as they were. One transaction with the end of the restore's progress row, so a
 * failure here leaves the restore to resume or to fail and put back again.
 */
export async function putBack(
  db: Db,
  storage: MediaStorage,
  restored: { archiveSha256: string; entryTables: readonly string[]; keptUsers: readonly string[]; kept: KeptTarget },
): Promise<void> {
  // The target had no media (it was empty), so every file its media rows name is the restore's. The
  // files go once the rows are gone: a put back that fails leaves no row naming a missing file.
  const files = await store.mediaKeys(db);
  await inTransaction(db, async (tx) => {
    for (const name of restored.entryTables) {
      if (!(await tableExists(tx, name))) continue;
      for (const entry of await store.scheduledEntries(tx, name)) await clearSchedule(tx, entry.id);
      await dropEntryTable(tx, name);
    }
    // Rows that name others go first: the tables in the reverse of the order a restore inserts them.
    for (const table of tablesInOrder().reverse()) {
      const rows = restored.kept.rows[table.name];
      if (rows !== undefined) {
        await store.deleteAllRows(tx, table.name);
        await store.insertRows(tx, table.name, rows, { key: table.key, replace: false });
      } else {
        const keys = table.name === 'users' ? restored.keptUsers : (restored.kept.keys[table.name] ?? []);
        await store.deleteRowsExcept(tx, table.name, keyColumn(table), keys);
      }
    }
    await store.endRestore(tx, restored.archiveSha256);
  });
  await storage.delete(files).catch(() => undefined);
}
