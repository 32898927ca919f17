import fs from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { AppError } from '../core/errors.ts';
import { runOperation } from '../core/operation.ts';
import { setSchedule } from '../content/schedule-store.ts';
import { inTransaction } from '../db/dialect.ts';
import { dropEntryTable, tableExists } from '../db/entry-tables.ts';
import type { Row } from '../db/snapshot.ts';
import type { SiteRestoresTable } from '../db/types.ts';
import { rebuildIndex } from '../search/operations.ts';
import * as schemaStore from '../schema/store.ts';
import { createCollectionStorage } from '../schema/storage.ts';
import { manifestMember, mediaPrefix, recordsPrefix, secretsMember, summaryMember } from './format.ts';
import { readMembers, verifyArchive, type VerifiedArchive } from './read.ts';
import { decryptingStream } from './secrets.ts';
import * as store from './store.ts';
import { archivedTable, entryTables, entryUserColumns, recordTables, secretTables, type ArchivedTable } from './tables.ts';

export interface RestoreOptions {
  /** Restore beside what the site has: existing records are kept, each conflicting one reported. */
  merge: boolean;
  passphrase?: string;
  /** This Folio's migrations: an archive whose schema has one it does not know is refused. */
  knownMigrations: readonly string[];
}

export interface RestoreConflict {
  table: string;
  key: string;
}

export interface RestoreResult {
  /** An interrupted restore of the same archive was continued. */
  resumed: boolean;
  tables: number;
  rows: number;
  mediaFiles: number;
  /** Records the site had already (merge), kept as they were; at most `conflictsShown` of them. */
  conflicts: RestoreConflict[];
  conflictCount: number;
  /** What a person should know: users matched by email, secrets left out. */
  notes: string[];
}

const conflictsShown = 1000;
const rowsPerTransaction = 1000;

/** Tables a fresh install (its first admin, their sign-in, settings) may already have rows in: a restore into it is still one into an empty site. */
const presentInFreshInstall = new Set(['users', 'settings', 'setup_state', 'plugin_states', 'audit_events']);

/**
 * `folio import-site FILE` and `POST /site/import` (docs/decisions/0061). The archive is read whole
 * and checked first; then its members go in, in order, rows in batches inside transactions; entry
 * tables are made from the restored collections; the search index is rebuilt. A progress row names
 * the archive and the last member done, so the same restore run again after a kill resumes there
 * (the member in progress goes in where absent). A restore that fails (not a merge) removes what it wrote.
 */
export async function restoreSiteArchive(ctx: Context, file: string, options: RestoreOptions): Promise<RestoreResult> {
  const verified = await verifyArchive(file, { passphrase: options.passphrase, knownMigrations: options.knownMigrations });
  const { db } = ctx;
  const now = isoNow(ctx.clock);
  const interrupted = await store.findRestore(db);
  if (interrupted !== undefined && interrupted.archive_sha256 !== verified.sha256) {
    throw new AppError('CONFLICT', 'A restore of another archive was interrupted in this site: run it again with that archive to finish it, then restore this one with merge', {
      archiveSha256: interrupted.archive_sha256,
    });
  }
  let progress = interrupted;
  if (progress === undefined) {
    if (!options.merge) await refuseNonEmpty(ctx);
    progress = { archive_sha256: verified.sha256, last_member: -1, merge: options.merge ? 1 : 0, kept_users: JSON.stringify(await store.allUserIds(db)), started_at: now, updated_at: now };
    await store.startRestore(db, progress);
  }
  const run = new RestoreRun(ctx, verified, progress);
  try {
    await run.restore(file);
  } catch (error) {
    if (progress.merge === 0 && !(error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE')) await run.wipe();
    throw error;
  }
  const rebuild = await runOperation(rebuildIndex, ctx, () => ({ stream: false }));
  await rebuild.run(() => undefined);
  await store.endRestore(db, verified.sha256);
  return { ...run.result(), resumed: interrupted !== undefined };
}

async function refuseNonEmpty(ctx: Context): Promise<void> {
  const mustBeEmpty = recordTables.filter((table): table is ArchivedTable => table !== entryTables && !presentInFreshInstall.has(table.name)).map((table) => table.name);
  const occupied = await store.tablesWithRows(ctx.db, mustBeEmpty);
  if (occupied.length > 0) {
    throw new AppError('CONFLICT', `The site is not empty (it has ${occupied.slice(0, 4).join(', ')}${occupied.length > 4 ? '…' : ''}): restore into an empty Folio, or merge the archive into this site`, {
      tables: occupied,
    });
  }
}

class RestoreRun {
  private readonly ctx: Context;
  private readonly verified: VerifiedArchive;
  private readonly progress: SiteRestoresTable;
  private readonly keptUsers: Set<string>;
  /** The archive's user ids whose email the site has under another id: references to them are pointed there. */
  private readonly userMap = new Map<string, string>();
  /** Collections the site had already (merge): their fields and entries are not merged. */
  private readonly keptCollections = new Set<string>();
  private readonly conflicts: RestoreConflict[] = [];
  private conflictCount = 0;
  private readonly notes: string[] = [];
  private tables = 0;
  private rows = 0;
  private mediaFiles = 0;

  constructor(ctx: Context, verified: VerifiedArchive, progress: SiteRestoresTable) {
    this.ctx = ctx;
    this.verified = verified;
    this.progress = progress;
    this.keptUsers = new Set(JSON.parse(progress.kept_users) as string[]);
  }

  result(): Omit<RestoreResult, 'resumed'> {
    return { tables: this.tables, rows: this.rows, mediaFiles: this.mediaFiles, conflicts: this.conflicts, conflictCount: this.conflictCount, notes: this.notes };
  }

  async restore(file: string): Promise<void> {
    const { manifest } = this.verified;
    if (manifest.secrets === 'encrypted' && this.verified.secretsKey === undefined) {
      this.notes.push('the archive holds encrypted sign-in secrets; without the passphrase they were left out: people sign in again');
    }
    let index = -1;
    await readMembers(fs.createReadStream(file), async (name, body) => {
      index += 1;
      const done = index <= this.progress.last_member;
      if (name === manifestMember || name === summaryMember) return drain(body);
      if (name.startsWith(recordsPrefix)) {
        const table = this.tableOf(name.slice(recordsPrefix.length, -'.ndjson'.length));
        // The users are read again on a resumed run: the map of matched emails is built from them.
        if (done && table.name !== 'users') await drain(body);
        else await this.restoreRecords(table, body);
        if (table.name === 'fields') await this.ensureEntryTables();
      } else if (name === secretsMember && !done && this.verified.secretsKey !== undefined) {
        await this.restoreSecrets(body.pipe(decryptingStream(this.verified.secretsKey, manifest.encryption!)));
      } else if (name.startsWith(mediaPrefix) && !done) {
        await this.restoreMedia(name.slice(mediaPrefix.length), body);
      } else {
        await drain(body);
      }
      if (done) return;
      await inTransaction(this.ctx.db, async (tx) => {
        const entryTable = name.startsWith(recordsPrefix) ? name.slice(recordsPrefix.length, -'.ndjson'.length) : undefined;
        if (entryTable !== undefined && manifest.entryTables.includes(entryTable)) await this.queuePublications(tx, entryTable);
        await store.markMemberRestored(tx, this.progress.archive_sha256, index, isoNow(this.ctx.clock));
      });
    });
  }

  private tableOf(name: string): ArchivedTable {
    if (this.verified.manifest.entryTables.includes(name)) return { name, key: ['_id'], userColumns: entryUserColumns };
    const table = archivedTable(name);
    if (table === undefined) throw new AppError('VALIDATION_ERROR', `The archive cannot be restored: records/${name}.ndjson: this Folio has no table ${name}`);
    return table;
  }

  private async restoreRecords(table: ArchivedTable, body: Readable): Promise<void> {
    if (this.verified.manifest.entryTables.includes(table.name) && this.keptCollections.has(table.name)) {
      this.conflict(table.name, 'all entries: the site has this collection already, so its entries were not merged');
      return drain(body);
    }
    for await (const batch of batches(lines(body))) {
      const rows = batch.map((line) => JSON.parse(line) as Row);
      if (table.name === 'users') await this.restoreUsers(rows);
      else await this.insert(table, rows);
    }
    this.tables += 1;
  }

  private async insert(table: ArchivedTable, rows: Row[]): Promise<void> {
    let wanted = rows.map((row) => this.mapUsers(table, row));
    if (table.name === 'fields' && this.keptCollections.size > 0) {
      wanted = wanted.filter((row) => {
        const kept = this.keptCollections.has(`ec_${String(row.collection_id).toLowerCase()}`);
        if (kept) this.conflict('fields', `${String(row.id)}: its collection was in the site already`);
        return !kept;
      });
    }
    const replace = table.replaces === true && this.progress.merge === 0;
    const refused = await inTransaction(this.ctx.db, (tx) => store.insertRows(tx, table.name, wanted, { key: table.key, replace }));
    this.rows += wanted.length - refused.length;
    // Rows already there on a resumed run were this restore's own; only a merge meets the site's.
    if (this.progress.merge === 1) {
      for (const row of refused) {
        this.conflict(table.name, table.key.map((column) => String(row[column])).join('/'));
        if (table.name === 'collections') this.keptCollections.add(String(row.table_name));
      }
    }
  }

  private conflict(table: string, key: string): void {
    this.conflictCount += 1;
    if (this.conflicts.length < conflictsShown) this.conflicts.push({ table, key });
  }

  private mapUsers(table: ArchivedTable, row: Row): Row {
    if (this.userMap.size === 0 || table.userColumns === undefined) return row;
    const mapped = { ...row };
    for (const column of table.userColumns) {
      const to = this.userMap.get(String(mapped[column]));
      if (to !== undefined) mapped[column] = to;
    }
    return mapped;
  }

  /** A user the site has by id stays as it is; one it has by email under another id takes the archive's references. */
  private async restoreUsers(rows: Row[]): Promise<void> {
    const found = await store.usersByIdOrEmail(this.ctx.db, rows.map((row) => String(row.id)), rows.map((row) => String(row.email)));
    const ids = new Set(found.map((user) => user.id));
    const byEmail = new Map(found.map((user) => [user.email, user.id]));
    const fresh: Row[] = [];
    for (const row of rows) {
      const id = String(row.id);
      const email = String(row.email);
      if (ids.has(id)) {
        if (this.keptUsers.has(id) && this.progress.merge === 1) this.conflict('users', id);
      } else if (byEmail.has(email)) {
        this.userMap.set(id, byEmail.get(email)!);
        this.notes.push(`the site has ${email} already: the archive's records of that user are credited to the site's account`);
      } else {
        fresh.push(row);
      }
    }
    await this.insert(archivedTable('users')!, fresh);
  }

  private async restoreSecrets(body: Readable): Promise<void> {
    let table: ArchivedTable | undefined;
    let rows: Row[] = [];
    const flush = async () => {
      if (table !== undefined && rows.length > 0) await this.insert(table, rows);
      rows = [];
    };
    for await (const line of lines(body)) {
      const { table: name, row } = JSON.parse(line) as { table: string; row: Row };
      if (table?.name !== name || rows.length >= rowsPerTransaction) {
        await flush();
        table = secretTables.find((candidate) => candidate.name === name);
        if (table === undefined) throw new AppError('VALIDATION_ERROR', `The archive cannot be restored: ${secretsMember}: this Folio has no table ${name}`);
      }
      rows.push(row);
    }
    await flush();
  }

  private async restoreMedia(key: string, body: Readable): Promise<void> {
    await this.ctx.storage.write(key, body, { contentType: (await store.mediaTypeOf(this.ctx.db, key)) ?? 'application/octet-stream' });
    this.mediaFiles += 1;
  }

  /** The entry tables of the restored collections, made as the schema's own code makes them; those made already are left. */
  private async ensureEntryTables(): Promise<void> {
    const rows = await schemaStore.listCollectionRows(this.ctx.db);
    for (const row of rows) {
      if (!this.verified.manifest.entryTables.includes(row.table_name) || this.keptCollections.has(row.table_name)) continue;
      await inTransaction(this.ctx.db, async (tx) => {
        if (await tableExists(tx, row.table_name)) return;
        const collection = await schemaStore.loadCollectionById(tx, row.id);
        if (collection !== undefined) await createCollectionStorage(tx, collection);
      });
    }
  }

  /** Scheduled entries are published by a job; jobs are not archived, so each gets its job again. */
  private async queuePublications(tx: Context['db'], table: string): Promise<void> {
    const collectionId = table.slice('ec_'.length).toUpperCase();
    const now = isoNow(this.ctx.clock);
    for (const entry of await store.scheduledEntries(tx, table)) await setSchedule(tx, entry.id, collectionId, entry.at, { now, by: null });
  }

  /** Removes what this restore wrote (not a merge): the site is as it was before, with the settings the archive brought. */
  async wipe(): Promise<void> {
    const { db, storage } = this.ctx;
    await storage.delete(await store.mediaKeys(db)).catch(() => undefined);
    await inTransaction(db, async (tx) => {
      for (const table of [...recordTables].reverse()) {
        if (table === entryTables) {
          for (const name of this.verified.manifest.entryTables) await dropEntryTable(tx, name);
        } else if (table.name === 'users') {
          await store.deleteUsersExcept(tx, [...this.keptUsers]);
        } else if (!presentInFreshInstall.has(table.name)) {
          await store.deleteAllRows(tx, table.name);
        }
      }
      await store.endRestore(tx, this.progress.archive_sha256);
    });
  }
}

async function drain(body: Readable): Promise<void> {
  for await (const _chunk of body);
}

function lines(body: Readable): AsyncIterable<string> {
  return createInterface({ input: body, crlfDelay: Infinity });
}

async function* batches(source: AsyncIterable<string>): AsyncGenerator<string[]> {
  let batch: string[] = [];
  for await (const line of source) {
    if (line === '') continue;
    batch.push(line);
    if (batch.length >= rowsPerTransaction) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
