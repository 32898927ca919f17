import type { Snapshot } from '../db/snapshot.ts';
import type { MediaStorage } from '../media/storage/types.ts';

export interface MediaCopy {
  files: number;
  bytes: number;
  /** Files the rows name that the source's storage did not have (a direct upload that never came). */
  missing: string[];
}

/** Files copied at once: storage round trips (S3 above all) overlap, memory stays a few streams. */
const parallelCopies = 4;

/**
 * Copies the files the snapshot's media rows name (originals and derived images) from one storage
 * to the other through the storage interface, streamed, byte for byte. With `onlyMissing` (a
 * catch-up) a file the target has already is left: storage keys are never reused for other bytes.
 */
export async function copyMedia(source: Snapshot, from: MediaStorage, to: MediaStorage, options: { onlyMissing: boolean }): Promise<MediaCopy> {
  const result: MediaCopy = { files: 0, bytes: 0, missing: [] };
  const copyOne = async (key: string, contentType: string) => {
    if (options.onlyMissing && (await to.stat(key)) !== undefined) return;
    if ((await from.stat(key)) === undefined) {
      result.missing.push(key);
      return;
    }
    const written = await to.write(key, await from.read(key), { contentType });
    result.files += 1;
    result.bytes += written.size;
  };
  for (const table of ['media', 'media_derivatives']) {
    for await (const batch of source.rows(table)) {
      for (let start = 0; start < batch.length; start += parallelCopies) {
        await Promise.all(batch.slice(start, start + parallelCopies).map((row) => copyOne(String(row.storage_key), String(row.mime_type))));
      }
    }
  }
  return result;
}
