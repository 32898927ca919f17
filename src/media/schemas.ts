import { z } from 'zod';
import { optionalQueryInteger, pageQuery } from '../core/pagination.ts';
import { storageKeyMaxLength } from './keys.ts';
import { defaultTransformLimits } from './transform-limits.ts';

const megapixelsOf = (pixels: number) => (pixels / 1_000_000).toFixed(1);

/** Media ids are ULIDs; anything else names no item (404), so the check here is only on length. */
const MediaId = z.string().min(1).max(64).describe('Media id');
const Filename = z.string().trim().min(1).max(255).describe('The file name as the user knows it');
const MimeType = z
  .string()
  .max(127)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, 'Must be a MIME type such as image/png')
  .transform((value) => value.toLowerCase())
  .describe('MIME type, e.g. image/png');
const Pixels = z.number().int().min(1).max(100_000).describe('Pixels, a whole number from 1');
const Alt = z.string().max(1000).nullable().describe('Alternative text; null clears it');
const Caption = z.string().max(5000).nullable().describe('Caption; null clears it');
const Title = z.string().max(500).nullable().describe('Title; null clears it');
const MimePrefix = z
  .string()
  .max(127)
  .regex(/^[a-z0-9!#$&^_.+/-]+$/i, 'Must be the start of a MIME type, e.g. image/ or application/pdf')
  .transform((value) => value.toLowerCase())
  .describe('Only items whose MIME type starts with this, e.g. image/');

export const MediaParams = z.object({ id: MediaId });

export const ListMediaQuery = z.object({
  mimeType: MimePrefix.optional(),
  q: z.string().trim().min(1).max(200).optional().describe('Only items whose file name, title, alternative text or caption contains this (any case)'),
  ...pageQuery(20),
});

/** `PUT /media/:id` and `media_update`: the description of the file, never the file itself. */
export const UpdateMediaBody = z.strictObject({
  alt: Alt.optional(),
  caption: Caption.optional(),
  title: Title.optional(),
  width: Pixels.optional(),
  height: Pixels.optional(),
});

/** `POST /media`: registers a record for an object already sent to storage (or on its way there). */
export const RegisterMediaBody = z.strictObject({
  filename: Filename,
  mimeType: MimeType,
  size: z.number().int().min(1).describe('Bytes'),
  width: Pixels.optional(),
  height: Pixels.optional(),
  storageKey: z.string().min(1).max(storageKeyMaxLength * 4).describe('The key returned by POST /media/upload-url'),
  alt: Alt.optional(),
  caption: Caption.optional(),
});

/** `POST /media/upload-url`: what the client is about to send. */
export const UploadUrlBody = z.strictObject({
  filename: Filename,
  mimeType: MimeType,
  size: z.number().int().min(1).describe('Bytes the client will send'),
});

export const UploadUrlResponse = z.object({
  uploadUrl: z.string().describe('Where to send the bytes'),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()).describe('Headers to send with the bytes'),
  storageKey: z.string().describe('Pass this to POST /media once the bytes are sent'),
  expiresAt: z.string(),
});

export const DirectUploadParams = z.object({ grant: z.string().min(1).max(200).describe('The grant in the upload URL') });

export const DirectUploadResponse = z.object({ storageKey: z.string(), size: z.number() });

export const MediaSchema = z
  .object({
    id: z.string(),
    filename: z.string(),
    mimeType: z.string().describe('What the bytes are (detected), not what a client said'),
    size: z.number(),
    width: z.number().nullable().describe('Pixels; null when not an image'),
    height: z.number().nullable(),
    url: z.string().describe('Absolute URL of the file'),
    alt: z.string().nullable(),
    caption: z.string().nullable(),
    title: z.string().nullable().describe('A title for people (an imported attachment keeps its own)'),
    storageKey: z.string(),
    contentHash: z.string().nullable().describe('SHA-256 of the bytes, hex; null while a registered file has not arrived'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'MediaItem' });

export type MediaItem = z.infer<typeof MediaSchema>;

export const MediaItemResponse = z.object({ item: MediaSchema });
export const UploadResponse = z.object({ item: MediaSchema, created: z.boolean().describe('false when the same bytes were already stored: the existing item') });
export const MediaDeletedResponse = z.object({ success: z.literal(true), id: z.string() });
export const MediaListResponse = z.object({ items: z.array(MediaSchema), nextCursor: z.string().optional() });

export const MediaUsageQuery = z.object(pageQuery(50));

const UsingEntry = z
  .object({
    id: z.string().describe('Entry id'),
    collection: z.string().describe('Collection slug'),
    slug: z.string(),
    locale: z.string(),
    title: z.string().describe("The entry's title field, or its slug when it has none"),
    status: z.string().describe('draft, published or scheduled'),
    deletedAt: z.string().nullable().describe('Set when the entry is in the trash (it still names the item)'),
    fields: z.array(z.string()).describe('The fields (slugs) whose values name the item: image, file, or image and file blocks of Portable Text; `_seo` for the entry\'s SEO image'),
  })
  .meta({ id: 'MediaUsingEntry' });

export const MediaUsageResponse = z.object({
  items: z.array(UsingEntry),
  total: z.number().describe('Entries naming the item, in every page'),
  nextCursor: z.string().optional(),
});

export const fitModes = ['cover', 'contain', 'inside'] as const;
export const transformFormats = ['webp', 'avif', 'jpeg', 'png'] as const;
export const maxTransformSide = 4096;

/** `GET /media/file/:key`: the key, and an image transform when any of these is given. */
export const FileParams = z.object({ key: z.string().min(1).max(2048) });
export const FileQuery = z.object({
  w: optionalQueryInteger(1, maxTransformSide).describe(`Width in pixels, 1-${maxTransformSide}; the output holds at most ${megapixelsOf(defaultTransformLimits.renderPixels)} megapixels (AVIF ${megapixelsOf(defaultTransformLimits.avifPixels)}), larger is a 400 (decisions/0033)`),
  h: optionalQueryInteger(1, maxTransformSide).describe(`Height in pixels, 1-${maxTransformSide}; with w, the same pixel budget`),
  fit: z.enum(fitModes).optional().describe('How the image fits w × h: cover (crop, default), contain (letterbox), inside (no larger than)'),
  format: z.enum(transformFormats).optional().describe('Output format; default the original (PNG for GIF and TIFF)'),
  q: optionalQueryInteger(1, 100).describe('Quality 1-100 (default 80)'),
});
