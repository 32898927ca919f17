import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import packageJson from '../../package.json' with { type: 'json' };
import { hashingTap } from '../backup/files.ts';
import { AppError } from '../core/errors.ts';
import type { Db } from '../db/connection.ts';
import { withSnapshot, type Snapshot } from '../db/snapshot.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import {
  archiveFormatVersion,
  manifestMember,
  mediaMember,
  recordsMember,
  secretsMember,
  summaryMember,
  type Manifest,
  type SummaryMember,
} from './format.ts';
import { levelledGzip, storedUncompressed, type LevelledGzip } from './compression.ts';
import { deriveKey, encryptingStream, newEncryption } from './secrets.ts';
import { openSpool, readSpooled, type SpoolWriter } from './spool.ts';
import { entryTables, recordTables, secretTables, type ArchivedTable } from './tables.ts';

export interface ExportSource {
  db: Db;
  /** The SQLite file, read through a connection of the export's own; undefined on PostgreSQL. */
  sqlitePath: string | undefined;
  storage: MediaStorage;
}

export interface ExportOptions {
  now: Date;
  /** With a passphrase the password-equivalents go in, encrypted (`--full`). */
  passphrase?: string;
  /** Told after each table and each media file written, for a job's progress. */
  onProgress?: (progress: ExportProgress) => void;
}

/** How far an export is: what it has put into the archive so far. */
export interface ExportProgress {
  phase: 'records' | 'media';
  tables: number;
  rows: number;
  mediaFiles: number;
}

export interface ExportTotals {
  tables: number;
  rows: number;
  /** The rows of each archived table (entry tables included), by name. */
  rowsByTable: Record<string, number>;
  mediaFiles: number;
  /** Media files the rows name that storage did not have. */
  missingMedia: string[];
}

/**
 * Writes the site as an archive to `output` (docs/decisions/0061): every table from one consistent
 * snapshot, then the media files those rows name. Rows go a batch at a time through a spool file per
 * table and files as streams, so memory stays flat whatever the site's size.
 */
export async function writeSiteArchive(source: ExportSource, output: Writable, options: ExportOptions): Promise<ExportTotals> {
  const spoolDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'folio-export-'));
  const pack = tar.pack();
  const gzip = levelledGzip();
  const written = Promise.all([pipeline(pack, gzip.input), pipeline(gzip.output, output)]);
  // A failed destination must not leave the pack's writers waiting for a drain that never comes.
  written.catch((error: unknown) => pack.destroy(error as Error));
  try {
    const totals = await withSnapshot(source.db, source.sqlitePath, (snapshot) => new ArchiveWriter(pack, gzip, snapshot, spoolDir, options).write(source.storage));
    pack.finalize();
    await written;
    return totals;
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => undefined);
    throw error;
  } finally {
    await fs.promises.rm(spoolDir, { recursive: true, force: true });
  }
}

class ArchiveWriter {
  private readonly members: SummaryMember[] = [];
  private tables = 0;
  private rows = 0;
  private readonly rowsByTable: Record<string, number> = {};
  private readonly pack: tar.Pack;
  private readonly gzip: LevelledGzip;
  private readonly snapshot: Snapshot;
  private readonly spoolDir: string;
  private readonly options: ExportOptions;

  constructor(pack: tar.Pack, gzip: LevelledGzip, snapshot: Snapshot, spoolDir: string, options: ExportOptions) {
    this.pack = pack;
    this.gzip = gzip;
    this.snapshot = snapshot;
    this.spoolDir = spoolDir;
    this.options = options;
  }

  async write(storage: MediaStorage): Promise<ExportTotals> {
    const entryTableNames = await this.entryTableNames();
    const encryption = this.options.passphrase === undefined ? undefined : newEncryption();
    const manifest: Manifest = {
      format: 'folio-site-archive',
      formatVersion: archiveFormatVersion,
      folioVersion: packageJson.version,
      createdAt: this.options.now.toISOString(),
      source: { database: this.snapshot.dialect, storage: storage.kind, migration: await this.migrationLevel() },
      secrets: encryption === undefined ? false : 'encrypted',
      ...(encryption === undefined ? {} : { encryption }),
      entryTables: entryTableNames,
    };
    await this.addBuffer(manifestMember, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    for (const table of recordTables) {
      if (table === entryTables) {
        for (const name of entryTableNames) await this.addTable({ name, key: ['_id'] });
      } else {
        await this.addTable(table);
      }
    }
    if (encryption !== undefined) {
      const key = await deriveKey(this.options.passphrase!, encryption);
      const spool = openSpool(this.spoolDir, secretsMember, encryptingStream(key, encryption));
      let rows = 0;
      for (const table of secretTables) rows += await this.spoolRows(spool, table, (row) => JSON.stringify({ table: table.name, row }));
      await this.addSpooled(secretsMember, spool, rows);
    }
    const media = await this.addMedia(storage);
    this.gzip.store(false);
    await this.addBuffer(summaryMember, Buffer.from(`${JSON.stringify({ members: this.members, missingMedia: media.missing }, null, 2)}\n`), false);
    return { tables: this.tables, rows: this.rows, rowsByTable: this.rowsByTable, mediaFiles: media.files, missingMedia: media.missing };
  }

  private async entryTableNames(): Promise<string[]> {
    const names: string[] = [];
    for await (const batch of this.snapshot.rows('collections')) for (const row of batch) names.push(String(row.table_name));
    return names.sort();
  }

  private async migrationLevel(): Promise<string> {
    let level = '';
    for await (const batch of this.snapshot.rows('folio_migrations')) for (const row of batch) if (String(row.name) > level) level = String(row.name);
    return level;
  }

  private async addTable(table: ArchivedTable): Promise<void> {
    const name = recordsMember(table.name);
    const spool = openSpool(this.spoolDir, `${this.members.length}.ndjson`);
    const rows = await this.spoolRows(spool, table, (row) => JSON.stringify(row));
    await this.addSpooled(name, spool, rows);
    this.tables += 1;
    this.rows += rows;
    this.rowsByTable[table.name] = rows;
    this.options.onProgress?.({ phase: 'records', tables: this.tables, rows: this.rows, mediaFiles: 0 });
  }

  /** Writes the table's rows to the spool, a line each; returns how many. */
  private async spoolRows(spool: SpoolWriter, table: ArchivedTable, line: (row: Record<string, unknown>) => string): Promise<number> {
    let count = 0;
    for await (const batch of this.snapshot.rows(table.name, { parent: table.parent })) {
      await spool.write(batch.map((row) => `${line(row)}\n`).join(''));
      count += batch.length;
    }
    return count;
  }

  private async addSpooled(name: string, spool: SpoolWriter, rows: number): Promise<void> {
    const spooled = await spool.finish();
    await this.addStream(name, spooled.size, readSpooled(spooled));
    this.members.push({ name, size: spooled.size, sha256: spooled.sha256, rows });
  }

  private async addBuffer(name: string, bytes: Buffer, listed = true): Promise<void> {
    await this.addStream(name, bytes.length, Readable.from([bytes]), listed);
  }

  /** One member from a stream of exactly `size` bytes; hashed on the way into the summary when `listed` (media, the manifest). */
  private async addStream(name: string, size: number, body: Readable, listed = false): Promise<void> {
    const tap = hashingTap();
    const added = new Promise<void>((resolve, reject) => {
      const sink = this.pack.entry({ name, size, mtime: this.options.now, mode: 0o600 }, (error) => (error ? reject(error) : resolve()));
      pipeline(body, tap, sink).catch(reject);
    });
    await added;
    if (listed) this.members.push({ name, ...tap.digest() });
  }

  private async addMedia(storage: MediaStorage): Promise<{ files: number; missing: string[] }> {
    const missing: string[] = [];
    let files = 0;
    for (const table of ['media', 'media_derivatives']) {
      for await (const batch of this.snapshot.rows(table)) {
        for (const row of batch) {
          const key = String(row.storage_key);
          // A registered direct upload whose bytes never came, or a file deleted since the snapshot.
          const stored = await storage.stat(key);
          if (stored === undefined) {
            missing.push(key);
            continue;
          }
          const body = await storage.read(key);
          this.gzip.store(storedUncompressed(String(row.mime_type)));
          await this.addStream(mediaMember(key), stored.size, body, true).catch((error: unknown) => {
            throw new AppError('INTERNAL_ERROR', `Media file ${key} could not be copied into the archive: ${(error as Error).message}`);
          });
          files += 1;
          this.options.onProgress?.({ phase: 'media', tables: this.tables, rows: this.rows, mediaFiles: files });
        }
      }
    }
    return { files, missing };
  }
}
