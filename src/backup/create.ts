import fs from 'node:fs';
import path from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import { AppError } from '../core/errors.ts';
import { copySqliteDatabase, readSqliteCopy, type NamedMediaFile } from '../db/sqlite-backup.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import { hashFile, pathUnder, writeHashed } from './files.ts';
import { databaseFile, manifestFile, mediaFolder, type BackedUpMediaFile, type Manifest } from './manifest.ts';
import { backupName } from './names.ts';

export interface CreatedBackup {
  /** The backup's directory. */
  dir: string;
  manifest: Manifest;
  /** Bytes on disk: the database copy and the media files. */
  size: number;
}

/**
 * `folio backup DIR` on SQLite (docs/decisions/0060): the database first, as one commit left it, then
 * the media files the copy's rows name, read from the storage the server writes to. A file uploaded
 * after the copy is not in it and not copied; one deleted since is listed as missing. The backup is
 * built under a hidden name and renamed into place whole, so a failed one never looks like a backup.
 */
export async function createSqliteBackup(options: { databasePath: string; storage: MediaStorage; dir: string; now: Date }): Promise<CreatedBackup> {
  const name = backupName(options.now);
  const final = path.join(options.dir, name);
  const work = path.join(options.dir, `.${name}.partial`);
  await fs.promises.mkdir(options.dir, { recursive: true });
  // Only the owner may read it: the copy holds users' emails and the hashes of their tokens and sessions.
  await fs.promises.mkdir(work, { mode: 0o700 });
  try {
    const copy = path.join(work, databaseFile);
    copySqliteDatabase(options.databasePath, copy);
    const contents = readSqliteCopy(copy);
    if (contents.integrityProblems.length > 0) {
      throw new AppError('INTERNAL_ERROR', `The database's copy fails SQLite's integrity check, so the database itself is damaged: ${contents.integrityProblems.slice(0, 3).join('; ')}`);
    }
    const database = await hashFile(copy);
    const media = options.storage.kind === 'local' ? await copyMedia(options.storage, contents.media, path.join(work, mediaFolder)) : { files: [], missing: [] };
    const manifest: Manifest = {
      format: 'folio-backup',
      formatVersion: 1,
      folioVersion: packageJson.version,
      createdAt: options.now.toISOString(),
      database: { engine: 'sqlite', file: databaseFile, ...database, migration: contents.migrations.at(-1) ?? '' },
      counts: contents.counts,
      media: { storage: options.storage.kind, ...media },
    };
    await fs.promises.writeFile(path.join(work, manifestFile), `${JSON.stringify(manifest, null, 2)}\n`);
    await fs.promises.rename(work, final);
    return { dir: final, manifest, size: database.size + media.files.reduce((sum, file) => sum + file.size, 0) };
  } catch (error) {
    await fs.promises.rm(work, { recursive: true, force: true });
    throw error;
  }
}

async function copyMedia(storage: MediaStorage, named: readonly NamedMediaFile[], folder: string): Promise<{ files: BackedUpMediaFile[]; missing: string[] }> {
  const files: BackedUpMediaFile[] = [];
  const missing: string[] = [];
  for (const { key, kind } of named) {
    const target = pathUnder(folder, key);
    const body = target === undefined ? undefined : await storage.read(key).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    });
    if (target === undefined || body === undefined) {
      missing.push(key);
      continue;
    }
    files.push({ key, kind, ...(await writeHashed(body, target)) });
  }
  return { files, missing };
}
