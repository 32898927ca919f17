import os from 'node:os';
import { spend, type RateLimit } from '../auth/rate-limit.ts';
import type { Context } from '../core/context.ts';
import { AppError, validationError } from '../core/errors.ts';
import { RenderQueue, type RenderQueueOptions } from './render-queue.ts';

/**
 * What one on-the-fly transform may cost (decisions/0033). Transforms are public: anyone holding a
 * file's URL chooses width, height, fit, quality and format, so every bound here is on what a
 * stranger can make the server decode, encode, store and wait for.
 */
export interface TransformLimits {
  /**
   * Pixels one rendering may decode, and write. Sources above it are rendered once into a stored
   * master of at most this many pixels, and every variant is rendered from the master.
   */
  renderPixels: number;
  /** AVIF encoders hold some 40 bytes a pixel and take seconds past a few megapixels: a smaller budget. */
  avifPixels: number;
  /** AVIF effort (0 fastest-9): 4, sharp's default, took 2.7 s for one megapixel of photograph; 2 took 0.2 s. */
  avifEffort: number;
  /** A rendering still running after this long is stopped (sharp's timeout) and answered 503. */
  renderTimeoutSeconds: number;
  queue: RenderQueueOptions;
  /** New variants (never the stored ones) per client address, and per source file, per window. */
  newVariantsPerClient: RateLimit;
  newVariantsPerSource: RateLimit;
}

const tenMinutes = 10 * 60_000;

/**
 * Two renderings at once, but never on every core: sharp runs one libvips thread per image on glibc,
 * and a core left to the event loop and the database keeps other requests' latency where it was.
 * More slots would only add memory (each holds its images) for renderings that are rare by design.
 */
function renderSlots(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

export const defaultTransformLimits: TransformLimits = {
  // 2^23: 4096 × 2048, or 3840 × 2160 (4K UHD) with room to spare.
  renderPixels: 8_388_608,
  // 2^21: 1920 × 1080 fits.
  avifPixels: 2_097_152,
  avifEffort: 2,
  renderTimeoutSeconds: 20,
  queue: { slots: renderSlots(), maxWaiting: 32, maxWaitMs: 10_000 },
  // A page of responsive images (a few widths in two formats) is a few dozen new variants; a crawler
  // walking widths is stopped long before it fills a file's 64.
  newVariantsPerClient: { name: 'media-variant-client', limit: 100, windowMs: tenMinutes },
  newVariantsPerSource: { name: 'media-variant-source', limit: 24, windowMs: tenMinutes },
};

/** AVIF renderings above this many output pixels take every slot, so two never hold their memory at once. */
export const heavyAvifPixels = 1_048_576;

interface ProcessLimits {
  limits: TransformLimits;
  queue: RenderQueue;
}

/**
 * The limits and the rendering queue of one app, kept per config object: a process serves one app,
 * and each test app gets its own queue.
 */
const byConfig = new WeakMap<object, ProcessLimits>();

export function transformLimitsOf(config: object): ProcessLimits {
  let found = byConfig.get(config);
  if (!found) {
    found = { limits: defaultTransformLimits, queue: new RenderQueue(defaultTransformLimits.queue) };
    byConfig.set(config, found);
  }
  return found;
}

/** Other limits for one app (tests: a queue of one slot and a short wait, a low cap). */
export function overrideTransformLimits(config: object, changes: Partial<TransformLimits>): ProcessLimits {
  const limits = { ...defaultTransformLimits, ...changes };
  const found = { limits, queue: new RenderQueue(limits.queue) };
  byConfig.set(config, found);
  return found;
}

export interface Size {
  width: number;
  height: number;
}

/** The master's size for a source above the budget (its aspect kept, pixels within it); undefined when the source is rendered directly. */
export function masterSize(source: Size, renderPixels: number): Size | undefined {
  const pixels = source.width * source.height;
  if (pixels <= renderPixels) return undefined;
  const scale = Math.sqrt(renderPixels / pixels);
  return { width: Math.max(1, Math.floor(source.width * scale)), height: Math.max(1, Math.floor(source.height * scale)) };
}

export interface RequestedSize {
  width: number | undefined;
  height: number | undefined;
  fit: 'cover' | 'contain' | 'inside';
}

/**
 * The largest image a transform of a `from`-sized image writes. Images are never enlarged; `contain`
 * letterboxes to the whole box, so its box is what counts.
 */
export function outputBound(from: Size, wanted: RequestedSize): Size {
  const { width, height } = wanted;
  if (width !== undefined && height !== undefined) {
    if (wanted.fit === 'contain') return { width, height };
    if (wanted.fit === 'inside') {
      const scale = Math.min(width / from.width, height / from.height, 1);
      return { width: Math.max(1, Math.round(from.width * scale)), height: Math.max(1, Math.round(from.height * scale)) };
    }
    return { width: Math.min(width, from.width), height: Math.min(height, from.height) };
  }
  if (width !== undefined) {
    const scaled = Math.min(width, from.width);
    return { width: scaled, height: Math.max(1, Math.round((from.height * scaled) / from.width)) };
  }
  if (height !== undefined) {
    const scaled = Math.min(height, from.height);
    return { width: Math.max(1, Math.round((from.width * scaled) / from.height)), height: scaled };
  }
  return from;
}

const megapixels = (pixels: number) => `${(pixels / 1_000_000).toFixed(1)} megapixels`;

/** 400 naming `w` and `h` (those given, else `format`) when the output would pass its format's budget. */
export function checkOutputBudget(output: Size, wanted: RequestedSize & { format: string }, limits: TransformLimits): void {
  const avif = wanted.format === 'avif';
  const budget = avif ? limits.avifPixels : limits.renderPixels;
  const pixels = output.width * output.height;
  if (pixels <= budget) return;
  const message = `This transform would write ${output.width} × ${output.height} pixels (${megapixels(pixels)}); ${avif ? 'AVIF is' : 'images are'} rendered up to ${megapixels(budget)}: ask for a smaller w or h${avif ? ', or another format' : ''}`;
  const paths = [wanted.width === undefined ? undefined : 'w', wanted.height === undefined ? undefined : 'h'].filter((path) => path !== undefined);
  throw validationError((paths.length > 0 ? paths : ['format']).map((path) => ({ path, message })));
}

/**
 * Counts one new variant against the client's address and against the source file; past either,
 * 429 with Retry-After (the end of the window). Stored variants never count: they are always served.
 * Counted in the database, so the caps hold across processes and restarts.
 */
export async function spendNewVariant(ctx: Pick<Context, 'db' | 'clock' | 'clientAddress'>, limits: TransformLimits, mediaId: string): Promise<void> {
  const client = ctx.clientAddress !== undefined ? `address:${ctx.clientAddress}` : 'unknown';
  await spendOrExplain(ctx, limits.newVariantsPerClient, client, `This client asked for ${limits.newVariantsPerClient.limit} new image variants`);
  await spendOrExplain(ctx, limits.newVariantsPerSource, `media:${mediaId}`, `This file had ${limits.newVariantsPerSource.limit} new variants made`);
}

async function spendOrExplain(ctx: Pick<Context, 'db' | 'clock'>, limit: RateLimit, subject: string, what: string): Promise<void> {
  try {
    await spend(ctx, limit, subject);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
    const retryAfter = error.details.retryAfter;
    const minutes = Math.round(limit.windowMs / 60_000);
    throw new AppError('RATE_LIMITED', `${what} within ${minutes} minutes, the most allowed; variants already made are still served. Try again in ${String(retryAfter)} seconds`, { retryAfter });
  }
}
