import { z } from 'zod';
import { ulidPattern } from '../fields/types/reference.ts';

/**
 * The site's SEO defaults (settings key `seo`, docs/decisions/0059-seo-fields.md): what a website
 * uses where an entry sets nothing. Entries do not carry them: a site reads the settings once.
 */
export const SiteSeoSettings = z.strictObject({
  titleSeparator: z.string().min(1).max(10).describe('Joins an entry\'s title and the site title in a page title, e.g. "–" or "|"'),
  defaultImage: z
    .union([
      z.string().regex(ulidPattern, 'Must be a media id or an absolute http(s) URL'),
      z.url({ protocol: /^https?$/, error: 'Must be a media id or an absolute http(s) URL' }).max(2048),
    ])
    .nullable()
    .describe('The social image of entries that set none: a media id or an absolute http(s) URL; null for none'),
});

export const siteSeoDefaults: z.output<typeof SiteSeoSettings> = { titleSeparator: '–', defaultImage: null };

/** An update names only the members it changes; the others stay. */
export const SiteSeoUpdate = SiteSeoSettings.partial();
