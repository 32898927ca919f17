import type SharpFactory from 'sharp';
import type { Sharp } from 'sharp';
import { AppError, validationError } from '../core/errors.ts';

/**
 * What a file is, from its bytes (DECISIONS §4c: never only what a client says): its MIME type, its
 * dimensions when it is an image, and whether a browser may show it inline.
 */

/**
 * sharp (libvips) and file-type are loaded when first needed: together they hold some 40 MB that a
 * process serving no upload and no transform never uses. Node keeps each module once, so later calls
 * are a lookup.
 */
export async function loadSharp(): Promise<typeof SharpFactory> {
  const sharp = (await import('sharp')).default;
  if (!sharpConfigured) {
    // libvips' operation cache keeps decoded images for reuse; every rendering here is a new one, so
    // the cache only held memory (up to 50 MB by default) that the rendering budget does not count.
    sharp.cache(false);
    sharpConfigured = true;
  }
  return sharp;
}
let sharpConfigured = false;

/** How many leading bytes are kept to tell a file's type and read an image's header. */
export const headBytes = 1024 * 1024;

/** Images sharp decodes, so they have dimensions and can be transformed. SVG is not one: it is never rasterized. */
const rasterTypes = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

export function isRasterImage(mimeType: string): boolean {
  return rasterTypes.has(mimeType);
}

/** Legacy Office files are all one container (CFB); the client's word picks among them. */
const cfbTypes = new Set(['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint']);
/** Text has no signature; a client may say which text it is. */
const textTypes = new Set(['text/plain', 'text/csv', 'text/markdown']);

/** XML is told apart further: an SVG drawing is XML too. */
const xmlTypes = new Set(['application/xml', 'text/xml']);

const svgStart = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s+svg[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>]/i;
const htmlHint = /<(?:!doctype\s+html|html|head|body|script|iframe|object|embed)[\s>]/i;

/**
 * The file's type from its first bytes (`head`, the whole file when shorter). A claim is used only
 * where bytes cannot tell (which text, which legacy Office file); a claim the bytes contradict loses.
 */
export async function detectType(head: Uint8Array, claimed: string): Promise<string> {
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(head);
  if (detected && !xmlTypes.has(detected.mime)) {
    if (detected.mime === 'application/x-cfb' && cfbTypes.has(claimed)) return claimed;
    return detected.mime;
  }
  const text = asText(head);
  if (text === undefined) return detected?.mime ?? 'application/octet-stream';
  if (svgStart.test(text)) return 'image/svg+xml';
  if (htmlHint.test(text)) return 'text/html';
  if (detected) return detected.mime;
  return textTypes.has(claimed) ? claimed : 'text/plain';
}

/** The bytes as UTF-8 text, or undefined when they are not text (a NUL, or not UTF-8). */
function asText(head: Uint8Array): string | undefined {
  if (head.includes(0)) return undefined;
  // A character cut off at the end of the head is not a reason to call the file binary.
  for (let cut = 0; cut < 4 && cut <= head.length; cut += 1) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
    } catch {
      // try one byte shorter
    }
  }
  return undefined;
}

/** Whether `mimeType` is among the allowed types (`type/*` allows a whole family). */
export function isAllowedType(mimeType: string, allowed: readonly string[]): boolean {
  const family = `${mimeType.split('/')[0]}/*`;
  return allowed.includes(mimeType) || allowed.includes(family);
}

export function typeNotAllowed(mimeType: string, allowed: readonly string[]): AppError {
  return new AppError('UNSUPPORTED_MEDIA_TYPE', `Files of type ${mimeType} are not allowed here`, { mimeType, allowed });
}

/**
 * Types a browser shows inline without running anything from them. Everything else (HTML, XML, SVG,
 * scripts, unknown bytes) is served as an attachment, so it never runs in the site's origin.
 */
export function dispositionOf(mimeType: string): 'inline' | 'attachment' {
  if (rasterTypes.has(mimeType) || mimeType === 'image/bmp' || mimeType === 'image/x-icon') return 'inline';
  if (mimeType.startsWith('audio/') || mimeType.startsWith('video/')) return 'inline';
  return mimeType === 'application/pdf' || mimeType === 'text/plain' ? 'inline' : 'attachment';
}

/** Decoding stops past this many input pixels (about 8,000 × 8,000): a small file cannot make a huge image. */
export const maxInputPixels = 64_000_000;

export interface Dimensions {
  width: number;
  height: number;
}

/** sharp reads a streamed image whole into memory: a header is looked for past the head only in files up to this size. */
const maxHeaderSearchBytes = 32 * 1024 * 1024;

/**
 * An image's dimensions from its header. `head` is tried first; `whole` (the stored bytes, `size` of
 * them) only when the header lies past the head. A file whose bytes say image but whose header is
 * unreadable is a 400, and so is one with more pixels than transforms decode (no variant could be made).
 */
export async function imageDimensions(head: Uint8Array, size: number, whole: () => Promise<NodeJS.ReadableStream>): Promise<Dimensions> {
  const sharp = await loadSharp();
  let dimensions = await readDimensions(sharp(head, { limitInputPixels: maxInputPixels }));
  if (!dimensions && size > head.length && size <= maxHeaderSearchBytes) {
    const reader = sharp({ limitInputPixels: maxInputPixels });
    (await whole()).pipe(reader);
    dimensions = await readDimensions(reader);
  }
  if (!dimensions) throw validationError([{ path: 'file', message: 'The image is corrupt: its header cannot be read' }]);
  if (dimensions.width * dimensions.height > maxInputPixels) {
    throw validationError([{ path: 'file', message: `The image has ${dimensions.width} × ${dimensions.height} pixels; at most ${maxInputPixels / 1_000_000} megapixels are allowed` }]);
  }
  return dimensions;
}

async function readDimensions(image: Sharp): Promise<Dimensions | undefined> {
  try {
    const metadata = await image.metadata();
    if (!metadata.width || !metadata.height) return undefined;
    // EXIF orientations 5-8 turn the picture a quarter: the width a viewer sees is the stored height.
    const turned = (metadata.orientation ?? 1) >= 5;
    return turned ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
  } catch {
    return undefined;
  }
}
