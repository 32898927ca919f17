import { z } from 'zod';
import { Label, urlSafeSlug } from '../core/schemas.ts';
import { pageQuery } from '../core/pagination.ts';

export const BylineParams = z.object({ id: z.string().min(1).max(64).describe('Byline id') });
export const ListBylinesQuery = z.object({ ...pageQuery(50) });

export const CreateBylineBody = z.strictObject({
  displayName: Label.describe('The name shown on entries'),
  slug: urlSafeSlug('URL-safe slug, unique; made from the name when omitted').optional(),
  userId: z.string().min(1).max(64).optional().describe('The user this byline belongs to; absent for a guest byline'),
});

/** Ordered byline credits as content writes take them: byline ids, the first one the primary byline. */
export const BylineCredits = z
  .array(z.string().min(1).max(64))
  .max(50)
  .refine((ids) => new Set(ids).size === ids.length, 'Must not name a byline twice')
  .describe('Byline ids in credit order; the first is the primary byline; [] credits nobody');

export const BylineSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    displayName: z.string(),
    userId: z.string().nullable().describe('The user the byline belongs to; null for a guest byline'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Byline' });

export type Byline = z.infer<typeof BylineSchema>;

export const BylineItemResponse = z.object({ item: BylineSchema });
export const BylineListResponse = z.object({ items: z.array(BylineSchema), nextCursor: z.string().optional() });
