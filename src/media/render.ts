import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { Sharp } from 'sharp';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { AppError, notFound, validationError } from '../core/errors.ts';
import { derivedKey } from './keys.ts';
import * as store from './store.ts';

/**
 * One rendering of a derived image (a variant, or the master of a large source): the stored bytes of
 * `sourceKey` piped through `pipeline` into storage while hashed, then recorded. Each rendering gets
 * a key of its own; the row recorded first names the object served and a loser's object is removed.
 */
export async function renderAndStore(
  ctx: Pick<Context, 'db' | 'storage' | 'clock'>,
  media: store.MediaRow,
  variant: string,
  sourceKey: string,
  pipeline: Sharp,
  format: string,
): Promise<store.DerivativeRow> {
  const key = derivedKey(media.id, variant);
  const hashing = new HashingCounter();
  const source = await ctx.storage.read(sourceKey);
  // A storage failure is Folio's (500); only what sharp cannot decode is the client's 400.
  source.on('error', (error) => hashing.destroy(error));
  pipeline.on('error', (error) => hashing.destroy(renderingFailure(error)));
  source.pipe(pipeline).pipe(hashing);
  const { size } = await ctx.storage.write(key, hashing, { contentType: `image/${format}` });
  const recorded = await store.insertDerivative(ctx.db, {
    media_id: media.id,
    variant,
    storage_key: key,
    mime_type: `image/${format}`,
    size,
    content_hash: hashing.digest(),
    created_at: isoNow(ctx.clock),
  });
  if (recorded?.storage_key !== key) await ctx.storage.delete([key]);
  if (!recorded) throw notFound('File');
  return recorded;
}

/**
 * A rendering stopped by its time limit (sharp's `timeout`) means the server is overloaded: 503, to be
 * tried again. Anything else sharp refuses (corrupt past its header, more pixels than allowed) is the
 * client's 400.
 */
function renderingFailure(error: Error): Error {
  if (/^timeout\b/i.test(error.message)) {
    return new AppError('SERVICE_UNAVAILABLE', 'Rendering the image took longer than allowed; try again shortly', { retryAfter: 5 });
  }
  return validationError([{ path: 'key', message: `The image cannot be transformed: ${error.message}` }]);
}

/** Passes bytes through while hashing them. */
class HashingCounter extends Transform {
  private readonly hash = createHash('sha256');
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    done(null, chunk);
  }
  digest(): string {
    return this.hash.digest('hex');
  }
}
