import { PassThrough, Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw } from 'node:zlib';

/**
 * The archive's gzip stream, whose deflate level the export lowers to 0 (stored blocks) around media
 * files that are compressed already (docs/decisions/0061). Deflate gains nothing on a JPEG or a video
 * but still searches it for matches: about 45 MB per CPU-second on this machine at any level, against
 * several hundred stored, most of an export's CPU for a site of photos. The file is still one gzip
 * member that any gunzip reads.
 *
 * Node's Gzip stream cannot change its level (params() acts on its deflate and raw deflate streams
 * only), so this is a raw deflate stream between gzip's header and trailer (RFC 1952: the CRC-32 and
 * length of the uncompressed bytes). The level changes between two writes, never during one, at the
 * next chunk the tar stream hands over: a few KiB of the neighbouring member may go at the other
 * level, which changes the archive's size by as much and nothing else.
 */
export interface LevelledGzip {
  /** Where the tar stream goes in. */
  input: Writable;
  /** The gzip file. */
  output: PassThrough;
  /** Stores what comes next uncompressed (`true`) or compresses it (`false`). */
  store(stored: boolean): void;
}

const compressedLevel = constants.Z_DEFAULT_COMPRESSION;
/** Magic, deflate, no flags, no time, no extra flags, made on Unix (as Node's own gzip writes it). */
const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

export function levelledGzip(): LevelledGzip {
  const deflate = createDeflateRaw({ level: compressedLevel });
  const output = new PassThrough();
  output.write(gzipHeader);
  deflate.pipe(output, { end: false });
  let crc = 0;
  let length = 0;
  deflate.once('end', () => {
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc, 0);
    trailer.writeUInt32LE(length % 2 ** 32, 4);
    output.end(trailer);
  });
  deflate.once('error', (error) => output.destroy(error));
  let wanted = compressedLevel;
  let current = compressedLevel;
  const input = new Writable({
    write(chunk: Buffer, _encoding, done) {
      crc = crc32(chunk, crc);
      length += chunk.length;
      const send = () => {
        if (deflate.write(chunk)) done();
        else deflate.once('drain', () => done());
      };
      if (wanted === current) return send();
      current = wanted;
      // params() flushes what was written before it, then changes the level; nothing is written meanwhile.
      deflate.params(current, constants.Z_DEFAULT_STRATEGY, (error?: Error | null) => (error ? done(error) : send()));
    },
    final(done) {
      deflate.end();
      done();
    },
    destroy(error, done) {
      if (error) deflate.destroy(error);
      done(error);
    },
  });
  return { input, output, store: (stored) => (wanted = stored ? constants.Z_NO_COMPRESSION : compressedLevel) };
}

/** Media types whose bytes deflate still shrinks (text, markup, uncompressed images); everything else is stored. */
const compressible = /^text\/|[/+](json|xml)$|^application\/(javascript|x-ndjson|x-tar)$|^image\/(bmp|x-ms-bmp|tiff)$/;

export function storedUncompressed(mimeType: string): boolean {
  return !compressible.test(mimeType);
}
