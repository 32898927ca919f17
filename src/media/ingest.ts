import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { AppError, validationError } from '../core/errors.ts';
import { detectType, headBytes, imageDimensions, isAllowedType, isRasterImage, typeNotAllowed, type Dimensions } from './inspect.ts';
import type { MediaStorage } from './storage/types.ts';
import { deleteMedia, updateMedia, type MediaRow } from './store.ts';

/** A file as Folio stored it, described from its bytes. */
export interface StoredFile {
  key: string;
  size: number;
  mimeType: string;
  dimensions: Dimensions | undefined;
  /** SHA-256 of the bytes, hex. */
  contentHash: string;
}

/**
 * The one way bytes enter Folio (uploads, direct uploads, imports): they stream into storage at `key`
 * while they are hashed and measured. The type is told from the first bytes before anything is
 * stored, so a type that is not allowed is refused (415) without storing the rest; an image's
 * dimensions are read from its header (a corrupt one is a 400). More than `maxBytes` is a 413 the
 * moment it is passed. On any failure nothing is left at `key`.
 */
export async function ingestFile(
  ctx: Pick<Context, 'storage' | 'config'>,
  source: AsyncIterable<Buffer>,
  options: { key: string; claimedType: string; maxBytes: number },
): Promise<StoredFile> {
  const iterator = source[Symbol.asyncIterator]();
  const { head, done } = await readHead(iterator);
  if (done && head.length === 0) throw validationError([{ path: 'file', message: 'The file is empty' }]);
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `Files may be at most ${options.maxBytes} bytes`, { limit: options.maxBytes });
  if (head.length > options.maxBytes) throw tooLarge();
  const mimeType = await detectType(head, options.claimedType);
  if (!isAllowedType(mimeType, ctx.config.media.allowedTypes)) {
    // The rest is never read: the request's body is left to the adapter.
    await iterator.return?.();
    throw typeNotAllowed(mimeType, ctx.config.media.allowedTypes);
  }
  const hash = createHash('sha256');
  async function* all(): AsyncGenerator<Buffer> {
    hash.update(head);
    yield head;
    if (done) return;
    let received = head.length;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      received += next.value.length;
      if (received > options.maxBytes) throw tooLarge();
      hash.update(next.value);
      yield next.value;
    }
  }
  const { size } = await ctx.storage.write(options.key, Readable.from(all(), { objectMode: false }), { contentType: mimeType });
  try {
    const dimensions = isRasterImage(mimeType) ? await imageDimensions(head, size, () => ctx.storage.read(options.key)) : undefined;
    return { key: options.key, size, mimeType, dimensions, contentHash: hash.digest('hex') };
  } catch (error) {
    await ctx.storage.delete([options.key]);
    throw error;
  }
}

/** Up to `headBytes` of the first bytes, and whether they are all there is. */
async function readHead(iterator: AsyncIterator<Buffer>): Promise<{ head: Buffer; done: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < headBytes) {
    const next = await iterator.next();
    if (next.done) return { head: Buffer.concat(chunks, length), done: true };
    chunks.push(next.value);
    length += next.value.length;
  }
  return { head: Buffer.concat(chunks, length), done: false };
}

/**
 * An object already in storage (a direct upload), described from its bytes as `ingestFile` would:
 * its head for the type and dimensions, and one pass over all of it for the hash. Undefined when
 * there is no object at `key` yet.
 */
export async function describeStoredFile(storage: MediaStorage, key: string, claimedType: string): Promise<StoredFile | undefined> {
  const stat = await storage.stat(key);
  if (!stat) return undefined;
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of (await storage.read(key)) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (length < headBytes) {
      chunks.push(chunk);
      length += chunk.length;
    }
  }
  const head = Buffer.concat(chunks, length);
  const mimeType = await detectType(head, claimedType);
  const dimensions = isRasterImage(mimeType) ? await imageDimensions(head, stat.size, () => storage.read(key)) : undefined;
  return { key, size: stat.size, mimeType, dimensions, contentHash: hash.digest('hex') };
}

/**
 * A record registered before its bytes arrived, completed from them once they have: type, size,
 * dimensions and hash as the bytes say. Undefined while the object is still missing, and for bytes
 * that break the rules a registration checks (a type not allowed, over the upload limit, a corrupt
 * image): the record and the object are removed, as an upload of them would have left nothing.
 */
export async function completeArrivedFile(ctx: Pick<Context, 'db' | 'storage' | 'clock' | 'config'>, row: MediaRow): Promise<MediaRow | undefined> {
  const { allowedTypes, uploadLimit } = ctx.config.media;
  let stored: StoredFile | 'unreadable' | undefined;
  try {
    stored = await describeStoredFile(ctx.storage, row.storage_key, row.mime_type);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 400) throw error;
    stored = 'unreadable';
  }
  if (stored === undefined) return undefined;
  if (stored === 'unreadable' || !isAllowedType(stored.mimeType, allowedTypes) || stored.size > uploadLimit) {
    await deleteMedia(ctx.db, row.id, row.storage_key);
    await ctx.storage.delete([row.storage_key]);
    return undefined;
  }
  return updateMedia(ctx.db, row.id, {
    mime_type: stored.mimeType,
    size: stored.size,
    width: stored.dimensions?.width ?? null,
    height: stored.dimensions?.height ?? null,
    content_hash: stored.contentHash,
    updated_at: isoNow(ctx.clock),
  });
}
