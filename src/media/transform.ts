import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { validationError } from '../core/errors.ts';
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
 * same variant writes the same bytes and finds the row there (insertDerivative ignores the clash).
 */
const rendering = new Map<string, Promise<store.DerivativeRow>>();

/** The stored variant of `media`, rendered and stored first when it is not there yet. */
export async function derivedImage(ctx: Pick<Context, 'db' | 'storage' | 'clock'>, media: store.MediaRow, transform: ImageTransform): Promise<store.DerivativeRow> {
  const variant = variantName(transform);
  const existing = await store.findDerivative(ctx.db, media.id, variant);
  if (existing) return existing;
  const flightKey = `${media.id}/${variant}`;
  let work = rendering.get(flightKey);
  if (!work) {
    // Set before anything is awaited, so a second request arriving meanwhile joins this one.
    work = renderWithinLimit(ctx, media, variant, transform).finally(() => rendering.delete(flightKey));
    rendering.set(flightKey, work);
  }
  return work;
}

async function renderWithinLimit(ctx: Pick<Context, 'db' | 'storage' | 'clock'>, media: store.MediaRow, variant: string, transform: ImageTransform): Promise<store.DerivativeRow> {
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
  source.on('error', (error) => image.destroy(error));
  image.on('error', (error) => hashing.destroy(undecodable(error)));
  source.pipe(image).pipe(hashing);
  const { size } = await ctx.storage.write(key, hashing, { contentType: `image/${transform.format}` });
  const row: store.DerivativeRow = {
    media_id: media.id,
    variant,
    storage_key: key,
    mime_type: `image/${transform.format}`,
    size,
    content_hash: hashing.digest(),
    created_at: isoNow(ctx.clock),
  };
  await store.insertDerivative(ctx.db, row);
  return row;
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
