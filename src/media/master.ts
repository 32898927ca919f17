import type { Context } from '../core/context.ts';
import { loadSharp, maxInputPixels } from './inspect.ts';
import { renderAndStore } from './render.ts';
import * as store from './store.ts';
import type { Size, TransformLimits } from './transform-limits.ts';

/**
 * The master of a large source: the original (up to 64 megapixels) decoded once into an image of at
 * most the rendering budget, stored as a derivative and used as the source of every variant. Without
 * it each new variant of an 8000 × 8000 PNG decoded all 64 megapixels again (8-9 s, 400 MB).
 * JPEG sources keep JPEG (fast, and libvips shrinks it on load for small variants); the others get
 * WebP, which keeps an alpha channel. Quality 90: the master is seen only through its variants.
 */
const masterQuality = 90;

/**
 * Concurrent first requests for one master in this process share one rendering (a loss costs only a
 * second rendering, as for variants: the first row recorded stands).
 */
const renderingMasters = new Map<string, Promise<store.DerivativeRow>>();

export async function masterOf(ctx: Pick<Context, 'db' | 'storage' | 'clock'>, media: store.MediaRow, size: Size, limits: TransformLimits): Promise<store.DerivativeRow> {
  const stored = await store.findMaster(ctx.db, media.id);
  if (stored) return stored;
  let work = renderingMasters.get(media.id);
  if (!work) {
    work = renderMaster(ctx, media, size, limits).finally(() => renderingMasters.delete(media.id));
    renderingMasters.set(media.id, work);
  }
  return work;
}

async function renderMaster(ctx: Pick<Context, 'db' | 'storage' | 'clock'>, media: store.MediaRow, size: Size, limits: TransformLimits): Promise<store.DerivativeRow> {
  const format = media.mime_type === 'image/jpeg' ? 'jpeg' : 'webp';
  const sharp = await loadSharp();
  // sequentialRead: libvips streams the decode top to bottom instead of holding the whole original.
  const pipeline = sharp({ limitInputPixels: maxInputPixels, sequentialRead: true })
    .rotate()
    .resize({ width: size.width, height: size.height, fit: 'inside', withoutEnlargement: true })
    .toFormat(format, { quality: masterQuality })
    .timeout({ seconds: limits.renderTimeoutSeconds });
  return renderAndStore(ctx, media, `${store.masterVariantPrefix}${format}`, media.storage_key, pipeline, format);
}
