import type { z } from 'zod';
import type { Context } from '../core/context.ts';
import { validationError } from '../core/errors.ts';
import { isRasterImage, loadSharp } from './inspect.ts';
import { masterOf } from './master.ts';
import { renderAndStore } from './render.ts';
import type { FileQuery, fitModes, transformFormats } from './schemas.ts';
import * as store from './store.ts';
import { checkOutputBudget, heavyAvifPixels, masterSize, outputBound, spendNewVariant, transformLimitsOf, type Size, type TransformLimits } from './transform-limits.ts';

/**
 * Image transforms of `GET /media/file/:key` (`w`, `h`, `fit`, `format`, `q`): each derived image is
 * made once with sharp, stored beside the original, recorded, and served from storage after that.
 * What a rendering may cost is bounded in transform-limits.ts (decisions/0033).
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
 * same variant stores its own object and then finds the first row (renderAndStore).
 */
const rendering = new Map<string, Promise<store.DerivativeRow>>();

/** sharp reads a streamed source whole into memory before it decodes: larger originals are not transformed. */
export const maxTransformSourceBytes = 40 * 1024 * 1024;

type TransformContext = Pick<Context, 'db' | 'storage' | 'clock' | 'config' | 'clientAddress'>;

/** How a variant is made: from the original, or from the master when the original is above the budget. */
interface RenderingPlan {
  master: Size | undefined;
  output: Size;
}

/**
 * The stored variant of `media`, rendered and stored first when it is not there yet. Before any work,
 * in this order: the output budget (400), the caps on new variants per client and per file (429),
 * then a place in the rendering queue (503 when it is full or the wait too long).
 */
export async function derivedImage(ctx: TransformContext, media: store.MediaRow, transform: ImageTransform): Promise<store.DerivativeRow> {
  const variant = variantName(transform);
  const existing = await store.findDerivative(ctx.db, media.id, variant);
  if (existing) return existing;
  if (media.size > maxTransformSourceBytes) {
    throw validationError([{ path: 'w', message: `Only images up to ${maxTransformSourceBytes / 1024 / 1024} MiB are transformed; this one has ${media.size} bytes` }]);
  }
  const { limits } = transformLimitsOf(ctx.config);
  const plan = planRendering(media, transform, limits);
  const flightKey = `${media.id}/${variant}`;
  let work = rendering.get(flightKey);
  if (!work) {
    // Set before anything is awaited, so a second request arriving meanwhile joins this one.
    work = queueRendering(ctx, media, variant, transform, plan).finally(() => rendering.delete(flightKey));
    rendering.set(flightKey, work);
  }
  return work;
}

function planRendering(media: store.MediaRow, transform: ImageTransform, limits: TransformLimits): RenderingPlan {
  if (media.width === null || media.height === null) {
    throw validationError([{ path: 'key', message: 'The image cannot be transformed: its dimensions are not known' }]);
  }
  const source = { width: media.width, height: media.height };
  const master = masterSize(source, limits.renderPixels);
  const output = outputBound(master ?? source, transform);
  checkOutputBudget(output, transform, limits);
  return { master, output };
}

async function queueRendering(ctx: TransformContext, media: store.MediaRow, variant: string, transform: ImageTransform, plan: RenderingPlan): Promise<store.DerivativeRow> {
  const { limits, queue } = transformLimitsOf(ctx.config);
  await spendNewVariant(ctx, limits, media.id);
  // The heaviest renderings take every slot, so their memory never adds up with another's.
  const mastering = plan.master !== undefined && (await store.findMaster(ctx.db, media.id)) === undefined;
  const heavyAvif = transform.format === 'avif' && plan.output.width * plan.output.height > heavyAvifPixels;
  const weight = mastering || heavyAvif ? limits.queue.slots : 1;
  return queue.run(() => renderWithinLimit(ctx, media, variant, transform, plan, limits), weight);
}

/** Counted once a slot is held, so at most the slots' number of renderings can pass the cap together. */
async function renderWithinLimit(ctx: TransformContext, media: store.MediaRow, variant: string, transform: ImageTransform, plan: RenderingPlan, limits: TransformLimits): Promise<store.DerivativeRow> {
  const existing = await store.findDerivative(ctx.db, media.id, variant);
  if (existing) return existing;
  if ((await store.countDerivatives(ctx.db, media.id)) >= maxVariantsPerFile) {
    throw validationError([{ path: 'w', message: `This file has ${maxVariantsPerFile} transformed variants already, the most it may have: ask for one of those` }]);
  }
  const sourceKey = plan.master === undefined ? media.storage_key : (await masterOf(ctx, media, plan.master, limits)).storage_key;
  const sharp = await loadSharp();
  // The source is the master or an original within the budget: a decode past it is refused (400).
  const pipeline = sharp({ limitInputPixels: limits.renderPixels, sequentialRead: true })
    .rotate()
    .resize({
      width: transform.width,
      height: transform.height,
      fit: transform.fit,
      withoutEnlargement: true,
      background: { r: 255, g: 255, b: 255, alpha: transform.format === 'jpeg' ? 1 : 0 },
    })
    .toFormat(transform.format, transform.format === 'avif' ? { quality: transform.quality, effort: limits.avifEffort } : { quality: transform.quality })
    .timeout({ seconds: limits.renderTimeoutSeconds });
  return renderAndStore(ctx, media, variant, sourceKey, pipeline, transform.format);
}
