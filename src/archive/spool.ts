import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { hashingTap } from '../backup/files.ts';
import { once } from 'node:events';

/**
 * A tar header states its member's size before the member's bytes, and a table's NDJSON size is
 * known only once it is written: each table goes to a file of its own in a temporary folder first
 * (written through backpressure, hashed on the way), then into the archive with its size.
 */

export interface SpooledFile {
  file: string;
  size: number;
  sha256: string;
}

export interface SpoolWriter {
  /** Resolves once the text may be followed by more (the file has caught up enough). */
  write(text: string): Promise<void>;
  finish(): Promise<SpooledFile>;
}

/** A spool file at `dir/name`; `through` (encryption) sits before the hash, which sees the stored bytes. */
export function openSpool(dir: string, name: string, through?: Transform): SpoolWriter {
  const file = path.join(dir, name);
  const out = fs.createWriteStream(file, { flags: 'wx' });
  const tap = hashingTap();
  const head = through ?? tap;
  if (through) through.pipe(tap);
  tap.pipe(out);
  let failure: Error | undefined;
  for (const stream of [head, tap, out]) stream.on('error', (error: Error) => (failure ??= error));
  return {
    async write(text) {
      if (failure) throw failure;
      if (head.write(text)) return;
      // Each wait takes its listeners back: a large table waits thousands of times.
      await new Promise<void>((resolve, reject) => {
        const settle = (error?: Error) => {
          head.off('drain', drained);
          out.off('error', settle);
          if (error) reject(error);
          else resolve();
        };
        const drained = () => settle();
        head.on('drain', drained);
        out.on('error', settle);
      });
    },
    async finish() {
      head.end();
      await once(out, 'close');
      if (failure) throw failure;
      return { file, ...tap.digest() };
    },
  };
}

/** A stream of the spooled file, removed once read. */
export function readSpooled(spooled: SpooledFile): Readable {
  const stream = fs.createReadStream(spooled.file);
  stream.once('close', () => void fs.promises.rm(spooled.file, { force: true }));
  return stream;
}
