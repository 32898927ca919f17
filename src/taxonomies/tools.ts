import { z } from 'zod';
import { defineTool, limitArgument } from '../mcp/tool.ts';
import { createTerm, listTaxonomies, listTerms } from './operations.ts';
import { CreateTermBody, ListTermsQuery } from './schemas.ts';

const taxonomyArgument = z.string().min(1).max(200).describe('Taxonomy name, e.g. category');

/** The three taxonomy tools of mcp.md, over the same operations as REST. */
export const taxonomyTools = [
  defineTool({
    name: 'taxonomy_list',
    title: 'List taxonomies',
    description: 'Lists the taxonomies: name, label, whether terms nest, and the collections each applies to.',
    operation: listTaxonomies,
    input: z.strictObject({}),
    flag: 'read-only',
  }),
  defineTool({
    name: 'taxonomy_list_terms',
    title: 'List taxonomy terms',
    description: 'Lists the terms of a taxonomy by slug, with parent and entry count, one page at a time (pass nextCursor back as cursor).',
    operation: listTerms,
    input: z.strictObject({ taxonomy: taxonomyArgument, ...ListTermsQuery.shape, limit: limitArgument(100, 50) }),
    toInput: ({ taxonomy, ...page }) => ({ name: taxonomy, ...page }),
    flag: 'read-only',
  }),
  defineTool({
    name: 'taxonomy_create_term',
    title: 'Create a taxonomy term',
    description: 'Creates a term in a taxonomy; parentId places it under another term of a hierarchical taxonomy.',
    operation: createTerm,
    input: z.strictObject({ taxonomy: taxonomyArgument, ...CreateTermBody.shape }),
    toInput: ({ taxonomy, ...term }) => ({ name: taxonomy, ...term }),
  }),
];
