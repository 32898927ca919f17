import { z } from 'zod';
import { EntryParams } from '../content/schemas.ts';
import { queryInteger } from '../core/pagination.ts';
import { SeoSchema } from '../seo/schemas.ts';

export const RevisionSchema = z
  .object({
    id: z.string(),
    collection: z.string().describe('Collection slug'),
    entryId: z.string(),
    slug: z.string().describe("The entry's slug at that save"),
    data: z.record(z.string(), z.unknown()),
    seo: SeoSchema.optional().describe("The entry's SEO values at that save; present when the collection's supports has seo"),
    authorId: z.string().optional().describe('The user who saved it; absent when no user did (the scheduler, an import)'),
    authorName: z.string().optional().describe("That user's display name as it is now; absent when the user no longer exists"),
    createdAt: z.string(),
  })
  .meta({ id: 'Revision' });

export const EntryRevisionsParams = EntryParams;
export const RevisionParams = z.object({ revisionId: z.string().min(1).max(64) });

export const ListRevisionsQuery = z.object({
  limit: queryInteger(1, 100, 50).describe('How many of the newest revisions, 1-100'),
});

export const RevisionItemResponse = z.object({ item: RevisionSchema });
export const RevisionListResponse = z.object({ items: z.array(RevisionSchema), total: z.number().int().describe('All revisions of the entry') });
