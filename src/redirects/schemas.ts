import { z } from 'zod';
import { BooleanQuery } from '../core/schemas.ts';
import { pageQuery } from '../core/pagination.ts';
import { fromProblem, normalizePath, parseTarget } from './paths.ts';

/** Where a redirect came from: made by a user, by a published entry's slug change, or by an import. */
export const redirectSources = ['manual', 'automatic', 'import'] as const;

const Source = z.enum(redirectSources);

const From = z
  .string()
  .max(2000)
  .superRefine((from, ctx) => {
    const problem = fromProblem(from);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('The old path on the site, e.g. /old-post/; kept without host, query or trailing "/" (docs/decisions/0057)');

const To = z
  .string()
  .max(2000)
  .refine((to) => parseTarget(to) !== undefined, 'Must be a path on the site starting with "/" or an absolute http(s) URL')
  .describe('Where it leads: a path on the site, or an absolute http(s) URL');

const Status = z.union([z.literal(301), z.literal(302)], 'Must be 301 (moved for good) or 302 (for now)');

export const RedirectParams = z.object({ id: z.string().min(1).max(200).describe('Redirect id') });

export const ListRedirectsQuery = z.object({
  search: z.string().min(1).max(200).optional().describe('Case-insensitive text in from or to'),
  source: Source.optional().describe('Only redirects from this source'),
  targetMissing: BooleanQuery.optional().describe('true: only redirects whose entry went to the trash or was deleted; false: only the others'),
  ...pageQuery(50),
});

export const CreateRedirectBody = z.strictObject({
  from: From,
  to: To,
  status: Status.default(301).describe('301 (default) or 302'),
});

export const UpdateRedirectBody = z.strictObject({
  from: From.optional(),
  to: To.optional().describe('A new target; the redirect no longer follows the entry it was made for'),
  status: Status.optional(),
});

export const LookupRedirectQuery = z.object({
  path: z
    .string()
    .max(2000)
    .refine((path) => normalizePath(path) !== undefined, 'Must be a path on the site')
    .describe('The path the site could not serve, e.g. /old-post/ (its query string is ignored)'),
});

export const RedirectSchema = z
  .object({
    id: z.string(),
    from: z.string(),
    to: z.string(),
    status: z.number().int(),
    source: Source,
    entry: z.object({ collection: z.string(), id: z.string() }).optional().describe('The entry an automatic or imported redirect leads to'),
    targetMissing: z.boolean().describe('The entry it leads to went to the trash or was deleted'),
    hits: z.number().int().describe('Lookups that found it (counted shortly after each)'),
    lastHitAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Redirect' });

export type Redirect = z.infer<typeof RedirectSchema>;

export const RedirectItemResponse = z.object({ item: RedirectSchema });
export const RedirectListResponse = z.object({ items: z.array(RedirectSchema), nextCursor: z.string().optional() });
export const RedirectLookupResponse = z.object({ to: z.string(), status: z.number().int() });
