import fs from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { AppError } from '../core/errors.ts';
import { runOperation } from '../core/operation.ts';
import { setSchedule } from '../content/schedule-store.ts';
import { inTransaction, isRowRefused } from '../db/dialect.ts';
import { tableExists } from '../db/entry-tables.ts';
import type { Row } from '../db/snapshot.ts';
import type { SiteRestoresTable } from '../db/types.ts';
import { rebuildIndex } from '../search/operations.ts';
import * as schemaStore from '../schema/store.ts';
import { createCollectionStorage } from '../schema/storage.ts';
import { manifestMember, mediaPrefix, recordsPrefix, secretsMember, summaryMember } from './format.ts';
import { archiveProblem, readMembers, verifyArchive, type VerifiedArchive } from './read.ts';
import { keepTarget, putBack, type KeptTarget } from './rollback.ts';
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
 * the archive, the last member done, the lines of the next one written and the report so far, so the
 * same restore run again after a kill resumes exactly there and reports what an uninterrupted one
 * would. A restore that fails (not a merge) puts the target back as it was (`rollback.ts`).
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
    if (!options.merge) await refuseNonEmpty(db, 'restore into an empty Folio, or merge the archive into this site');
    // A merge is never undone (the site's own records are in the same tables): only a restore into an empty site keeps what it had.
    const kept: KeptTarget = options.merge ? { keys: {}, rows: {} } : await keepTarget(db);
    progress = {
      archive_sha256: verified.sha256,
      last_member: -1,
      member_rows: 0,
      merge: options.merge ? 1 : 0,
      kept_users: JSON.stringify(await store.allUserIds(db)),
      report: '{}',
      kept: JSON.stringify(kept),
      started_at: now,
      updated_at: now,
    };
    await store.startRestore(db, progress);
  }
  const run = new RestoreRun(ctx, verified, progress);
  try {
    await run.restore(file);
  } catch (error) {
    if (progress.merge === 0 && !(error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE')) {
      await putBack(db, ctx.storage, { archiveSha256: verified.sha256, entryTables: verified.manifest.entryTables, keptUsers: [...run.keptUsers], kept: JSON.parse(progress.kept) as KeptTarget });
    }
    throw error;
  }
  const rebuild = await runOperation(rebuildIndex, ctx, () => ({ stream: false }));
  await rebuild.run(() => undefined);
  await store.endRestore(db, verified.sha256);
  return { ...run.result(), resumed: interrupted !== undefined };
}

/** Refuses a site holding more than a fresh install makes (a restore's or a move's target); `fix` says what to do instead. */
export async function refuseNonEmpty(db: Context['db'], fix: string): Promise<void> {
  const mustBeEmpty = recordTables.filter((table): table is ArchivedTable => table !== entryTables && !presentInFreshInstall.has(table.name)).map((table) => table.name);
  const occupied = await store.tablesWithRows(db, mustBeEmpty);
  if (occupied.length > 0) {
    throw new AppError('CONFLICT', `The site is not empty (it has ${occupied.slice(0, 4).join(', ')}${occupied.length > 4 ? '…' : ''}): ${fix}`, {
      tables: occupied,
    });
  }
}

class RestoreRun {
  private readonly ctx: Context;
  private readonly verified: VerifiedArchive;
  private readonly progress: SiteRestoresTable;
  readonly keptUsers: Set<string>;
  /** The archive's user ids whose email the site has under another id: references to them are pointed there. */
  private readonly userMap = new Map<string, string>();
  /** What the restore has done and has to say, saved with every write so a resumed run goes on from it. */
  private readonly report: SavedReport;
  /** Collections the site had already (merge): their fields and entries are not merged. */
  private readonly keptCollections: Set<string>;
  /** The member being restored (its index and name) and how many of its lines are written. */
  private member = -1;
  private memberName = '';
  private memberRows = 0;

  constructor(ctx: Context, verified: VerifiedArchive, progress: SiteRestoresTable) {
    this.ctx = ctx;
    this.verified = verified;
    this.progress = progress;
    this.keptUsers = new Set(JSON.parse(progress.kept_users) as string[]);
    this.report = { ...emptyReport(), ...(JSON.parse(progress.report) as Partial<SavedReport>) };
    this.keptCollections = new Set(this.report.keptCollections);
  }

  result(): Omit<RestoreResult, 'resumed'> {
    const { keptCollections: _kept, ...result } = this.report;
    return result;
  }

  /** Saves where the restore is, in the transaction that wrote it. */
  private async saveProgress(tx: Context['db'], lastMember: number): Promise<void> {
    this.report.keptCollections = [...this.keptCollections];
    await store.saveProgress(tx, this.progress.archive_sha256, { lastMember, memberRows: this.memberRows, report: JSON.stringify(this.report), now: isoNow(this.ctx.clock) });
  }

  async restore(file: string): Promise<void> {
    const { manifest } = this.verified;
    if (manifest.secrets === 'encrypted' && this.verified.secretsKey === undefined) {
      const note = 'the archive holds encrypted sign-in secrets; without the passphrase they were left out: people sign in again';
      // A resumed run finds it in the saved report already.
      if (!this.report.notes.includes(note)) this.report.notes.push(note);
    }
    let index = -1;
    await readMembers(fs.createReadStream(file), async (name, body) => {
      index += 1;
      const done = index <= this.progress.last_member;
      this.member = index;
      this.memberName = name;
      // The lines of this member a killed run wrote already: skipped, not inserted again.
      const skip = done ? Infinity : index === this.progress.last_member + 1 ? this.progress.member_rows : 0;
      this.memberRows = done ? 0 : skip;
      if (name === manifestMember || name === summaryMember) return drain(body);
      if (name.startsWith(recordsPrefix)) {
        const table = this.tableOf(name.slice(recordsPrefix.length, -'.ndjson'.length));
        // The users are read again on a resumed run: the map of matched emails is built from them.
        if (done && table.name !== 'users') await drain(body);
        else await this.restoreRecords(table, body, skip, done);
        if (table.name === 'fields') await this.ensureEntryTables();
      } else if (name === secretsMember && !done && this.verified.secretsKey !== undefined) {
        await this.restoreSecrets(body.pipe(decryptingStream(this.verified.secretsKey, manifest.encryption!)), skip);
      } else if (name.startsWith(mediaPrefix) && !done) {
        await this.restoreMedia(name.slice(mediaPrefix.length), body);
      } else {
        await drain(body);
      }
      if (done) return;
      this.memberRows = 0;
      await inTransaction(this.ctx.db, async (tx) => {
        const entryTable = name.startsWith(recordsPrefix) ? name.slice(recordsPrefix.length, -'.ndjson'.length) : undefined;
        if (entryTable !== undefined && manifest.entryTables.includes(entryTable)) await this.queuePublications(tx, entryTable);
        await this.saveProgress(tx, index);
      });
    });
  }

  private tableOf(name: string): ArchivedTable {
    if (this.verified.manifest.entryTables.includes(name)) return { name, key: ['_id'], userColumns: entryUserColumns };
    const table = archivedTable(name);
    if (table === undefined) throw new AppError('VALIDATION_ERROR', `The archive cannot be restored: records/${name}.ndjson: this Folio has no table ${name}`);
    return table;
  }

  /** The member's rows, skipping the first `skip` lines (written by a killed run; users' are read again for the email map). */
  private async restoreRecords(table: ArchivedTable, body: Readable, skip: number, done: boolean): Promise<void> {
    if (this.verified.manifest.entryTables.includes(table.name) && this.keptCollections.has(table.name)) {
      this.conflict(table.name, 'all entries: the site has this collection already, so its entries were not merged');
      return drain(body);
    }
    let read = 0;
    for await (const batch of batches(lines(body))) {
      const written = Math.min(batch.length, Math.max(0, skip - read));
      read += batch.length;
      if (table.name === 'users' && written > 0) await this.matchUsers(batch.slice(0, written).map(parseRow), false);
      if (written === batch.length) continue;
      const rows = batch.slice(written).map(parseRow);
      await this.insert(table, table.name === 'users' ? await this.matchUsers(rows, true) : rows, read);
    }
    if (!done) this.report.tables += 1;
  }

  /** Inserts the rows and saves the progress (`memberRows` lines of the member written) in one transaction. */
  private async insert(table: ArchivedTable, rows: Row[], memberRows: number): Promise<void> {
    let wanted = rows.map((row) => this.mapUsers(table, row));
    if (table.name === 'fields' && this.keptCollections.size > 0) {
      wanted = wanted.filter((row) => {
        const kept = this.keptCollections.has(`ec_${String(row.collection_id).toLowerCase()}`);
        if (kept) this.conflict('fields', `${String(row.id)}: its collection was in the site already`);
        return !kept;
      });
    }
    const replace = table.replaces === true && this.progress.merge === 0;
    await inTransaction(this.ctx.db, async (tx) => {
      const refused = await store.insertRows(tx, table.name, wanted, { key: table.key, replace }).catch((error: unknown) => {
        // The archive passed its checks but holds a row this database cannot take: bad input, said where.
        if (!isRowRefused(error)) throw error;
        const outcome = this.progress.merge === 1 ? 'the records merged before it stay' : 'nothing was restored';
        throw archiveProblem(this.memberName, `the database refused a row among lines ${this.memberRows + 1} to ${memberRows} (${(error as Error).message}); ${outcome}`);
      });
      this.report.rows += wanted.length - refused.length;
      // A resumed run skips what it wrote, so a refused row is the site's: a merge reports it.
      if (this.progress.merge === 1) {
        for (const row of refused) {
          this.conflict(table.name, table.key.map((column) => String(row[column])).join('/'));
          if (table.name === 'collections') this.keptCollections.add(String(row.table_name));
        }
      }
      this.memberRows = memberRows;
      await this.saveProgress(tx, this.member - 1);
    });
  }

  private conflict(table: string, key: string): void {
    this.report.conflictCount += 1;
    if (this.report.conflicts.length < conflictsShown) this.report.conflicts.push({ table, key });
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

  /**
   * A user the site has by id stays as it is; one it has by email under another id takes the archive's
   * references. Returns the users to insert; `report` is false for users a killed run read already.
   */
  private async matchUsers(rows: Row[], report: boolean): Promise<Row[]> {
    const found = await store.usersByIdOrEmail(this.ctx.db, rows.map((row) => String(row.id)), rows.map((row) => String(row.email)));
    const ids = new Set(found.map((user) => user.id));
    const byEmail = new Map(found.map((user) => [user.email, user.id]));
    const fresh: Row[] = [];
    for (const row of rows) {
      const id = String(row.id);
      const email = String(row.email);
      if (ids.has(id)) {
        if (report && this.keptUsers.has(id) && this.progress.merge === 1) this.conflict('users', id);
      } else if (byEmail.has(email)) {
        this.userMap.set(id, byEmail.get(email)!);
        if (report) this.report.notes.push(`the site has ${email} already: the archive's records of that user are credited to the site's account`);
      } else {
        fresh.push(row);
      }
    }
    return fresh;
  }

  private async restoreSecrets(body: Readable, skip: number): Promise<void> {
    let table: ArchivedTable | undefined;
    let rows: Row[] = [];
    let read = 0;
    const flush = async (memberRows: number) => {
      if (table !== undefined && rows.length > 0) await this.insert(table, rows, memberRows);
      rows = [];
    };
    for await (const line of lines(body)) {
      read += 1;
      if (read <= skip) continue;
      const { table: name, row } = JSON.parse(line) as { table: string; row: Row };
      if (table?.name !== name || rows.length >= rowsPerTransaction) {
        await flush(read - 1);
        table = secretTables.find((candidate) => candidate.name === name);
        if (table === undefined) throw new AppError('VALIDATION_ERROR', `The archive cannot be restored: ${secretsMember}: this Folio has no table ${name}`);
      }
      rows.push(row);
    }
    await flush(read);
  }

  private async restoreMedia(key: string, body: Readable): Promise<void> {
    await this.ctx.storage.write(key, body, { contentType: (await store.mediaTypeOf(this.ctx.db, key)) ?? 'application/octet-stream' });
    this.report.mediaFiles += 1;
  }

  /** The entry tables of the restored collections, made as the schema's own code makes them; those made already are left. */
  private async ensureEntryTables(): Promise<void> {
    await ensureEntryTables(this.ctx.db, (table) => this.verified.manifest.entryTables.includes(table) && !this.keptCollections.has(table));
  }

  private async queuePublications(tx: Context['db'], table: string): Promise<void> {
    await queuePublications(tx, table, isoNow(this.ctx.clock));
  }
}

/** The report a restore saves as it goes, with the collections a merge found in the site already. */
type SavedReport = Omit<RestoreResult, 'resumed'> & { keptCollections: string[] };

const emptyReport = (): SavedReport => ({ tables: 0, rows: 0, mediaFiles: 0, conflicts: [], conflictCount: 0, notes: [], keptCollections: [] });

const parseRow = (line: string) => JSON.parse(line) as Row;

/** Makes the entry tables (those `wanted`) of the collections the site has rows of, as the schema's own code makes them; those made already are left. */
export async function ensureEntryTables(db: Context['db'], wanted: (table: string) => boolean): Promise<void> {
  for (const row of await schemaStore.listCollectionRows(db)) {
    if (!wanted(row.table_name)) continue;
    await inTransaction(db, async (tx) => {
      if (await tableExists(tx, row.table_name)) return;
      const collection = await schemaStore.loadCollectionById(tx, row.id);
      if (collection !== undefined) await createCollectionStorage(tx, collection);
    });
  }
}

/** Scheduled entries are published by a job; jobs are neither archived nor moved, so each gets its job again. */
export async function queuePublications(tx: Context['db'], table: string, now: string): Promise<void> {
  const collectionId = table.slice('ec_'.length).toUpperCase();
  for (const entry of await store.scheduledEntries(tx, table)) await setSchedule(tx, entry.id, collectionId, entry.at, { now, by: null });
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
