import { z } from 'zod';
import { EntryParams, GetEntryQuery } from '../content/schemas.ts';

/** How long a preview link may live: a minute at least (time to open it), a week at most (decisions/0046). */
export const previewLifetime = { minSeconds: 60, maxSeconds: 7 * 24 * 3600, defaultSeconds: 3600 } as const;

export const PreviewUrlParams = EntryParams;

export const PreviewUrlBody = z.strictObject({
  expiresIn: z
    .number()
    .int()
    .min(previewLifetime.minSeconds)
    .max(previewLifetime.maxSeconds)
    .default(previewLifetime.defaultSeconds)
    .describe(`Seconds the link works, ${previewLifetime.minSeconds}-${previewLifetime.maxSeconds} (default ${previewLifetime.defaultSeconds}, an hour)`),
});

export const PreviewUrlResponse = z.object({
  url: z.string().describe("The entry's page on the site (the siteUrl setting and the collection's urlPattern) with a `preview` query parameter carrying the token"),
  expiresAt: z.string().describe('When the token stops working (ISO 8601)'),
});

/** The token as the link carries it: the grant's id, a dot, then its secret. */
export const PreviewToken = z.string().min(3).max(200).describe('The `preview` parameter of the link POST …/preview-url made');

export const PreviewReadQuery = z.object({ ...GetEntryQuery.shape, token: PreviewToken });
