import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { notFound, validationError } from '../core/errors.ts';
import { Semaphore } from '../core/semaphore.ts';
import { isRasterImage, loadSharp, maxInputPixels } from './inspect.ts';
import { derivedKey } from './keys.ts';
import type { FileQuery, fitModes, transformFormats } from './schemas.ts';
import * as store from './store.ts';

/**
 * Image transforms of `GET /media/file/:key` (`w`, `h`, `fit`, `format`, `q`): each derived image is
 * made once with sharp, stored beside the original, recorded, and served from storage after that.
 */

export interface ImageTransform {
  width: number | undefined;
  height: number | undefined;
  fit: (typeof fitModes)[number];
  format: (typeof transformFormats)[number];
  quality: number;
}

const defaultQuality = 80;

/**
 * Transforms are public, so anyone could ask for every width, height and quality of a file and fill
 * the disk. A site's responsive images need a few widths in a few formats; past this many stored
 * variants of one file, a new one is refused.
 */
export const maxVariantsPerFile = 64;

/** The transform a query asks for, or undefined for the original file. Only raster images transform (400). */
export function requestedTransform(query: z.output<typeof FileQuery>, mimeType: string): ImageTransform | undefined {
  if (query.w === undefined && query.h === undefined && query.fit === undefined && query.format === undefined && query.q === undefined) return undefined;
  if (!isRasterImage(mimeType)) throw validationError([{ path: 'w', message: `Only images can be transformed; this file is ${mimeType}` }]);
  return { width: query.w, height: query.h, fit: query.fit ?? 'cover', format: query.format ?? formatOf(mimeType), quality: query.q ?? defaultQuality };
}

/** The original's own format where the transforms can write it; PNG (lossless) for the others. */
function formatOf(mimeType: string): ImageTransform['format'] {
  if (mimeType === 'image/jpeg') return 'jpeg';
  if (mimeType === 'image/webp') return 'webp';
  if (mimeType === 'image/avif') return 'avif';
  return 'png';
}

/** The variant's name: every parameter, so two requests for the same image name the same one. */
export function variantName(transform: ImageTransform): string {
  return `${transform.width ?? 'auto'}x${transform.height ?? 'auto'}-${transform.fit}-q${transform.quality}.${transform.format}`;
}

/**
 * Concurrent first requests for one variant in this process share one piece of work. This is not
 * state anyone reads: losing it costs only a second rendering, and another process rendering the
 * same variant stores its own object and then finds the first row (renderVariant).
 */
const rendering = new Map<string, Promise<store.DerivativeRow>>();

/**
 * Renderings at once in this process. Transforms are public and libvips uses every core for one
 * image, so more in parallel would only queue inside it while each holds its source in memory.
 */
const renderSlots = new Semaphore(2);

/** sharp reads a streamed source whole into memory before it decodes: larger originals are not transformed. */
export const maxTransformSourceBytes = 40 * 1024 * 1024;

/** The stored variant of `media`, rendered and stored first when it is not there yet. */
export async function derivedImage(ctx: Pick<Context, 'db' | 'storage' | 'clock'>, media: store.MediaRow, transform: ImageTransform): Promise<store.DerivativeRow> {
  const variant = variantName(transform);
  const existing = await store.findDerivative(ctx.db, media.id, variant);
  if (existing) return existing;
  if (media.size > maxTransformSourceBytes) {
    throw validationError([{ path: 'w', message: `Only images up to ${maxTransformSourceBytes / 1024 / 1024} MiB are transformed; this one has ${media.size} bytes` }]);
  }
  const flightKey = `${media.id}/${variant}`;
  let work = rendering.get(flightKey);
  if (!work) {
    // Set before anything is awaited, so a second request arriving meanwhile joins this one.
    work = renderSlots.run(() => renderWithinLimit(ctx, media, variant, transform)).finally(() => rendering.delete(flightKey));
    rendering.set(flightKey, work);
  }
  return work;
}

/** Counted once a slot is held, so at most the slots' number of renderings can pass the cap together. */
async function renderWithinLimit(ctx: Pick<Context, 'db' | 'storage' | 'clock'>, media: store.MediaRow, variant: string, transform: ImageTransform): Promise<store.DerivativeRow> {
  const existing = await store.findDerivative(ctx.db, media.id, variant);
  if (existing) return existing;
  if ((await store.countDerivatives(ctx.db, media.id)) >= maxVariantsPerFile) {
    throw validationError([{ path: 'w', message: `This file has ${maxVariantsPerFile} transformed variants already, the most it may have: ask for one of those` }]);
  }
  return renderVariant(ctx, media, variant, transform);
}

async function renderVariant(ctx: Pick<Context, 'db' | 'storage' | 'clock'>, media: store.MediaRow, variant: string, transform: ImageTransform): Promise<store.DerivativeRow> {
  const key = derivedKey(media.id, variant);
  const sharp = await loadSharp();
  const image = sharp({ limitInputPixels: maxInputPixels })
    .rotate()
    .resize({
      width: transform.width,
      height: transform.height,
      fit: transform.fit,
      withoutEnlargement: true,
      background: { r: 255, g: 255, b: 255, alpha: transform.format === 'jpeg' ? 1 : 0 },
    })
    .toFormat(transform.format, { quality: transform.quality });
  const hashing = new HashingCounter();
  const source = await ctx.storage.read(media.storage_key);
  // A storage failure is Folio's (500); only what sharp cannot decode is the client's 400.
  source.on('error', (error) => hashing.destroy(error));
  image.on('error', (error) => hashing.destroy(undecodable(error)));
  source.pipe(image).pipe(hashing);
  const { size } = await ctx.storage.write(key, hashing, { contentType: `image/${transform.format}` });
  const recorded = await store.insertDerivative(ctx.db, {
    media_id: media.id,
    variant,
    storage_key: key,
    mime_type: `image/${transform.format}`,
    size,
    content_hash: hashing.digest(),
    created_at: isoNow(ctx.clock),
  });
  if (recorded?.storage_key !== key) await ctx.storage.delete([key]);
  if (!recorded) throw notFound('File');
  return recorded;
}

/** A source that sharp cannot decode (corrupt past its header, too many pixels) is the client's 400. */
function undecodable(error: Error): Error {
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
