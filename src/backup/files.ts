import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The SHA-256 (hex) and size of a file, read as a stream: a backup's files may be larger than memory. */
export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** A pass-through that hashes (SHA-256) and counts the bytes on their way; `digest()` once they have all passed, `passed()` at any time. */
export function hashingTap(): Transform & { digest(): { size: number; sha256: string }; passed(): number } {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return Object.assign(tap, { digest: () => ({ size, sha256: hash.digest('hex') }), passed: () => size });
}

/** Writes `body` to `file` (its folders made), hashing the bytes on the way: one read of each media file. */
export async function writeHashed(body: Readable, file: string): Promise<{ size: number; sha256: string }> {
  const tap = hashingTap();
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await pipeline(body, tap, fs.createWriteStream(file, { flags: 'wx' }));
  return tap.digest();
}

/** `key` as a path under `root`, or undefined when it would leave it (a key no storage would have written). */
export function pathUnder(root: string, key: string): string | undefined {
  const file = path.resolve(root, key);
  return file.startsWith(`${path.resolve(root)}${path.sep}`) ? file : undefined;
}

/** A size as a person reads it: 1.4 MB. */
export function formatSize(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
