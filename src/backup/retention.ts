import fs from 'node:fs';
import path from 'node:path';
import { Manifest, manifestFile } from './manifest.ts';
import { isBackupName } from './names.ts';

/** How many backups `folio backup` keeps in its folder when not told: a week of nightly ones. */
export const defaultKeep = 7;

/**
 * Removes the oldest backups in `dir` beyond the newest `keep`; returns the names removed. Only what is
 * a Folio backup both by its name and by a manifest that reads as one counts, or is ever removed:
 * the folder may hold other things (a person's notes, pg_dump files, another program's backups).
 */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true });
  const backups: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() && isBackupName(entry.name) && (await hasManifest(path.join(dir, entry.name)))) backups.push(entry.name);
  }
  // Names sort as the times they were taken.
  const removed = backups.sort().reverse().slice(keep);
  for (const name of removed) await fs.promises.rm(path.join(dir, name), { recursive: true });
  return removed;
}

async function hasManifest(backup: string): Promise<boolean> {
  try {
    return Manifest.safeParse(JSON.parse(await fs.promises.readFile(path.join(backup, manifestFile), 'utf8'))).success;
  } catch {
    return false;
  }
}
