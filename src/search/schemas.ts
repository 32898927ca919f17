import { z } from 'zod';
import { LocaleTag } from '../core/locale.ts';
import { queryInteger } from '../core/pagination.ts';

/** A query of any text; 16,384 characters leave room for the longest a person pastes (the parser uses its first terms). */
export const QueryText = z.string().trim().min(1, 'Must not be empty').max(16_384);
const CollectionSlug = z.string().min(1).max(63);
const Locale = LocaleTag.describe('Only entries in this BCP 47 locale; its language also picks the stemming');

export const SearchQueryParams = z.object({
  q: QueryText.describe('Words (all must match), "quoted phrases", prefix*, -excluded, OR between words; anything else is text'),
  collections: z
    .string()
    .max(6400)
    .transform((value, ctx) => {
      const slugs = value.split(',').map((slug) => slug.trim()).filter((slug) => slug !== '');
      if (slugs.length === 0 || slugs.length > 100) ctx.addIssue({ code: 'custom', message: 'Must name 1-100 collection slugs, comma-separated' });
      return [...new Set(slugs)];
    })
    .optional()
    .describe('Comma-separated collection slugs; each must list search in supports'),
  status: z.enum(['published', 'draft']).default('published').describe('published (default): live values; draft: the working values editors see (role 20 and up)'),
  locale: Locale.optional(),
  limit: queryInteger(1, 50, 20).describe('Page size, 1-50'),
  cursor: z.string().min(1).max(2048).optional().describe('Opaque cursor from the previous page'),
});

export const SuggestQueryParams = z.object({
  // Not trimmed: a trailing space says the last word is complete ("new " is not "newspaper").
  q: z.string().max(1000).refine((text) => text.trim() !== '', 'Must not be empty').describe('What was typed: titles that start with it, or with a word that does'),
  limit: queryInteger(1, 20, 10).describe('How many titles, 1-20'),
});

export const RebuildBody = z.strictObject({
  collections: z.array(CollectionSlug).min(1).max(100).optional().describe('Only these collections; default every collection with search'),
  stream: z.boolean().default(false).describe('Answer NDJSON: a progress line per batch of entries, then the result'),
});

export const SearchResultSchema = z
  .object({
    collection: z.string(),
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    snippet: z.string().describe('HTML: the best-matching passage, matched terms in <mark>, everything else escaped'),
    score: z.number().describe('Higher is better'),
  })
  .meta({ id: 'SearchResult' });

export const SearchResponse = z.object({ results: z.array(SearchResultSchema), nextCursor: z.string().optional() });

export const SuggestResponse = z.object({
  items: z.array(z.object({ collection: z.string(), id: z.string(), slug: z.string(), title: z.string() })),
});

const CollectionCountsSchema = z.object({ collection: z.string(), entries: z.number(), documents: z.number() });

export const RebuildResponse = z.object({ items: z.array(CollectionCountsSchema).describe('Per collection: entries read and documents written') });
export const RebuildResultSchema = RebuildResponse.extend({ type: z.literal('result') }).meta({ id: 'SearchRebuildResult' });
export const RebuildProgressSchema = CollectionCountsSchema.extend({
  type: z.literal('progress'),
  entries: z.number().describe('Entries of this collection read so far'),
  documents: z.number().describe('Documents written so far'),
  total: z.number().describe("The collection's entries (the trash too) when its rebuild began, or more if more were read"),
}).meta({ id: 'SearchRebuildProgress' });
export const RebuildLineSchema = z.union([RebuildProgressSchema, RebuildResultSchema]);
export const StatsResponse = z.object({ items: z.array(CollectionCountsSchema).describe('Per collection with search: entries indexed and their documents (a staged draft makes two)') });

export type SearchResult = z.infer<typeof SearchResultSchema>;
export type RebuildProgress = z.infer<typeof RebuildProgressSchema>;
export type RebuildResult = z.infer<typeof RebuildResultSchema>;
