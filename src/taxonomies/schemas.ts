import { z } from 'zod';
import { Label, machineName, nameParam, urlSafeSlug } from '../core/schemas.ts';
import { pageQuery } from '../core/pagination.ts';
import { UrlPattern } from '../core/url-patterns.ts';

const TaxonomyName = machineName('Taxonomy name, e.g. category');
const NameParam = nameParam('Taxonomy name');
const TermSlug = urlSafeSlug('URL-safe slug, unique in its taxonomy');
const Description = z.string().max(5000).nullable();
const TermId = z.string().min(1).max(64);

export const TaxonomyParams = z.object({ name: NameParam });
export const TermParams = z.object({ name: NameParam, slug: z.string().min(1).max(200).describe('Term slug') });
export const EntryTermsParams = z.object({
  collection: z.string().min(1).max(200).describe('Collection slug'),
  id: z.string().min(1).max(200).describe('Entry id (ULID) or slug'),
  taxonomy: NameParam,
});

const Collections = z.array(z.string().min(1).max(63)).max(100).describe('Slugs of the collections the taxonomy applies to');

export const CreateTaxonomyBody = z.strictObject({
  name: TaxonomyName,
  label: Label.describe('Plural display name, e.g. Categories'),
  labelSingular: Label.optional().describe('e.g. Category'),
  hierarchical: z.boolean().default(false).describe('Terms may have a parent (categories); otherwise flat (tags)'),
  collections: Collections.default([]),
  urlPattern: UrlPattern.nullable().optional(),
});

export const UpdateTaxonomyBody = z.strictObject({
  label: Label.optional(),
  labelSingular: Label.nullable().optional(),
  collections: Collections.optional(),
  urlPattern: UrlPattern.nullable().optional(),
});

export const ListTermsQuery = z.object({ ...pageQuery(50) });

export const CreateTermBody = z.strictObject({
  slug: TermSlug,
  label: Label,
  parentId: TermId.nullable().optional().describe('The parent term, in hierarchical taxonomies'),
  description: Description.optional(),
});

export const UpdateTermBody = z.strictObject({
  slug: TermSlug.optional(),
  label: Label.optional(),
  parentId: TermId.nullable().optional().describe('A new parent; null makes it a top-level term'),
  description: Description.optional(),
});

/** The most terms one reorder may place: a whole large taxonomy at once. */
export const maxTermsPerReorder = 10_000;

export const ReorderTermsBody = z.strictObject({
  terms: z
    .array(z.strictObject({ id: TermId, parentId: TermId.nullable(), sortOrder: z.number().int().min(0).max(1_000_000).describe('Place among its siblings, lowest first') }))
    .min(1)
    .max(maxTermsPerReorder)
    .describe('Terms to place; terms not listed keep their place. All or nothing'),
});

export const EntryTermsBody = z.strictObject({
  termIds: z.array(TermId).max(1000).describe('Every term the entry has in this taxonomy; [] removes them all'),
});

export const TaxonomySchema = z
  .object({
    name: z.string(),
    label: z.string(),
    labelSingular: z.string().nullable(),
    hierarchical: z.boolean(),
    collections: z.array(z.string()),
    urlPattern: z.string().nullable().describe("Where a term's page is served, e.g. /category/{slug}"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Taxonomy' });

export const TermSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    label: z.string(),
    parentId: z.string().nullable(),
    description: z.string().nullable(),
    count: z.number().describe('How many entries have the term'),
    sortOrder: z.number().describe('Place among its siblings, lowest first (ties by slug)'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Term' });

export type Taxonomy = z.infer<typeof TaxonomySchema>;
export type Term = z.infer<typeof TermSchema>;

export const TaxonomyItemResponse = z.object({ item: TaxonomySchema });
export const TaxonomyListResponse = z.object({ items: z.array(TaxonomySchema) });
export const TermItemResponse = z.object({ item: TermSchema });
export const TermListResponse = z.object({ items: z.array(TermSchema), nextCursor: z.string().optional() });
export type TermTreeNode = Term & { children: TermTreeNode[] };
export const TermTreeNodeSchema: z.ZodType<TermTreeNode> = z
  .lazy(() => TermSchema.extend({ children: z.array(TermTreeNodeSchema).describe('Its children, in order') }))
  .meta({ id: 'TermTreeNode' });
export const TermTreeResponse = z.object({ items: z.array(TermTreeNodeSchema).describe('Top-level terms in order, each with its children') });
export const EntryTermsResponse = z.object({ taxonomy: z.string(), items: z.array(TermSchema) });
