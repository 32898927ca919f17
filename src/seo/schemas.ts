import { z } from 'zod';

/**
 * An entry's search and social metadata on the wire (docs/decisions/0059-seo-fields.md). The limits
 * are generous beyond what search engines show (about 60 and 160 characters) so that a title or
 * description written for one site, or imported, is kept whole; the panel may warn sooner.
 */
export const seoTitleMaxLength = 120;
export const seoDescriptionMaxLength = 320;
const canonicalMaxLength = 2048;

const SeoImageInput = z
  .union([
    z.string().max(canonicalMaxLength),
    z.strictObject({
      id: z.string().max(64).optional(),
      url: z.string().max(canonicalMaxLength).optional(),
      alt: z.string().max(1000).optional(),
      caption: z.string().max(1000).optional(),
    }),
  ])
  .describe('The social (Open Graph) image, as an image field takes it: a media id, an http(s) URL or /path, or {id, url, alt}');

/** Members given replace the stored ones; `null` (or an empty text) clears one; members left out stay. */
export const SeoInput = z
  .strictObject({
    title: z.string().max(seoTitleMaxLength).nullable().optional().describe(`The title for search results and shares, at most ${seoTitleMaxLength} characters; without the site's name (settings seo.titleSeparator joins it)`),
    description: z.string().max(seoDescriptionMaxLength).nullable().optional().describe(`The meta description, at most ${seoDescriptionMaxLength} characters`),
    canonical: z
      .url({ protocol: /^https?$/, error: 'Must be an absolute http(s) URL' })
      .max(canonicalMaxLength)
      .nullable()
      .optional()
      .describe('The canonical URL, absolute http(s)'),
    noIndex: z.boolean().nullable().optional().describe('Ask search engines not to index the entry'),
    image: SeoImageInput.nullable().optional(),
  })
  .describe("Search and social metadata (collections whose supports has seo); members left out stay as they are, null clears one");

export const SeoSchema = z
  .object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    canonical: z.string().nullable(),
    noIndex: z.boolean(),
    image: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("As an image field reads: the media item's url, width, height and type filled in, or missing: true once it is deleted"),
  })
  .meta({ id: 'EntrySeo' });
