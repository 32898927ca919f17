import { z } from 'zod';
import { defineTool, limitArgument } from '../mcp/tool.ts';
import { LocaleTag } from '../core/locale.ts';
import { searchContent } from './operations.ts';
import { QueryText } from './schemas.ts';

/** The search tool of mcp.md: published content, the same operation as `GET /search`. */
export const searchTools = [
  defineTool({
    name: 'search',
    title: 'Search content',
    description:
      'Full-text search of published content, best matches first. Words must all match; "quoted phrases", prefix*, -excluded and OR between words work. ' +
      'Each result has collection, id, slug, title, an HTML snippet with matched terms in <mark>, and a score.',
    operation: searchContent,
    input: z.strictObject({
      query: QueryText.describe('What to look for'),
      collections: z.array(z.string().min(1).max(63)).min(1).max(100).optional().describe('Only these collection slugs; each must support search'),
      locale: LocaleTag.optional().describe('Only entries in this BCP 47 locale'),
      limit: limitArgument(50, 20),
    }),
    toInput: ({ query, collections, locale, limit }) => ({ q: query, collections, locale, limit, status: 'published' as const }),
    flag: 'read-only',
  }),
];
