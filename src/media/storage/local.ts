import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { notFound } from '../../core/errors.ts';
import type { ByteRange } from '../../core/results.ts';
import type { MediaStorage } from './types.ts';

/**
 * Media on local disk under one directory (MEDIA_DIR). A file is written under `.partial/` and renamed
 * into place once whole, so a reader never sees half a file and a failed write leaves nothing.
 */
export function localStorage(dir: string): MediaStorage {
  const root = path.resolve(dir);
  const partialDir = path.join(root, '.partial');

  const pathOf = (key: string): string => {
    const file = path.resolve(root, key);
    // Keys are checked before they get here; this guards the disk against any that was not.
    if (!file.startsWith(`${root}${path.sep}`) || file.startsWith(`${partialDir}${path.sep}`)) throw notFound('File');
    return file;
  };

  return {
    kind: 'local',
    async write(key, body) {
      const target = pathOf(key);
      await fs.promises.mkdir(partialDir, { recursive: true });
      const partial = path.join(partialDir, randomBytes(12).toString('hex'));
      let size = 0;
      body.on('data', (chunk: Buffer) => (size += chunk.length));
      try {
        await pipeline(body, fs.createWriteStream(partial, { flags: 'wx' }));
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return { size };
    },
    async stat(key) {
      try {
        const stats = await fs.promises.stat(pathOf(key));
        return stats.isFile() ? { size: stats.size } : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async read(key, range?: ByteRange) {
      const file = pathOf(key);
      // Opened before the stream is handed over, so a missing file is a 404 and not a broken response.
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, 'r');
      } catch (error) {
        if (isMissing(error)) throw notFound('File');
        throw error;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {}) as Readable;
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => fs.promises.rm(pathOf(key), { force: true })));
    },
    presignUpload: async () => undefined,
    presignDownload: async () => undefined,
    publicUrl: () => undefined,
    close: async () => undefined,
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
