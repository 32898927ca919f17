import { z } from 'zod';
import { fieldTypes } from '../schema/types.ts';

const PostTypeName = z.string().min(1).max(100).describe('A WordPress post type: post, page, or a custom one');
const CollectionSlug = z.string().min(1).max(63).describe('Target collection slug');

const ImportOptions = z.strictObject({
  includeMedia: z.boolean().default(false).describe('Record attachments and featured images for the media import (POST /import/legacy/media)'),
  includeTaxonomies: z.boolean().default(true).describe('Import categories, tags and custom taxonomies with their terms'),
  includeMenus: z.boolean().default(true).describe('Import navigation menus'),
});

const AuthorMapping = z
  .record(z.string().min(1).max(200), z.string().min(1).max(64))
  .describe('Source author login → Folio user id: that user owns the entries, through their byline; unmapped authors get guest bylines');

export const PrepareBody = z.strictObject({
  analysisId: z.string().min(1).max(64).optional().describe('The analysis whose custom fields to add as well; without it, the import fields only'),
  postTypes: z
    .array(z.strictObject({ name: PostTypeName, collection: CollectionSlug, enabled: z.boolean() }))
    .min(1)
    .max(100),
});

/** Form B: an upload already analysed. */
export const ExecuteJsonBody = z.strictObject({
  analysisId: z.string().min(1).max(64),
  options: ImportOptions.default({ includeMedia: false, includeTaxonomies: true, includeMenus: true }),
  postTypeMappings: z.record(PostTypeName, z.strictObject({ collection: CollectionSlug })).optional().describe('Default: each analysed type to its suggested collection'),
  authorMapping: AuthorMapping.optional(),
});

/** Form A's `config` part: a JSON object. */
export const ExecuteConfig = z.strictObject({
  postTypeMappings: z.record(PostTypeName, z.strictObject({ collection: CollectionSlug })),
  options: ImportOptions.default({ includeMedia: false, includeTaxonomies: true, includeMenus: true }),
  authorMapping: AuthorMapping.optional(),
});

export type ImportOptionsInput = z.output<typeof ImportOptions>;

export const JobParams = z.object({ id: z.string().min(1).max(64).describe('Import job id') });

const FieldShape = z.object({ slug: z.string(), label: z.string(), type: z.enum(fieldTypes) });

export const AnalysisSchema = z
  .object({
    analysisId: z.string(),
    source: z.string(),
    expiresAt: z.string(),
    site: z.object({ title: z.string(), url: z.string(), language: z.string().optional() }),
    version: z.string().optional(),
    postTypes: z.array(
      z.object({
        name: z.string(),
        count: z.number(),
        status: z.enum(['ready', 'new_collection', 'add_fields', 'incompatible']),
        collection: z.string().describe('Suggested target collection'),
        fieldsToAdd: z.array(FieldShape),
        conflicts: z.array(z.object({ field: z.string(), existingType: z.string(), wantedType: z.string() })),
      }),
    ),
    skipped: z.array(z.object({ postType: z.string(), count: z.number(), reason: z.string() })),
    attachments: z.object({ images: z.number(), video: z.number(), audio: z.number(), other: z.number() }),
    authors: z.array(z.object({ login: z.string(), displayName: z.string(), email: z.string(), posts: z.number() })),
    taxonomies: z.array(z.object({ name: z.string(), target: z.string(), hierarchical: z.boolean(), terms: z.number() })),
    menus: z.array(z.object({ name: z.string(), label: z.string(), items: z.number() })),
    reusableBlocks: z.number(),
    comments: z.number(),
  })
  .meta({ id: 'ImportAnalysis' });

export const PrepareResponse = z.object({
  items: z.array(z.object({ postType: z.string(), collection: z.string(), created: z.boolean(), fieldsAdded: z.array(z.string()) })),
});

const ReportSchema = z
  .object({
    counts: z.record(z.string(), z.number()).describe('Entries imported per collection'),
    sections: z.number().describe('Reusable blocks imported as sections'),
    terms: z.number(),
    bylines: z.number(),
    menus: z.number(),
    menuItems: z.number(),
    alreadyImported: z.number().describe('Items an earlier import of the same source made, left as they are'),
    media: z.object({
      attachments: z.number(),
      featuredImages: z.number(),
      pending: z.array(z.object({ id: z.string(), url: z.string() })).describe('Attachments to download with POST /import/legacy/media (with includeMedia)'),
    }),
    skipped: z.array(z.object({ reason: z.string(), count: z.number(), items: z.array(z.object({ sourceId: z.string(), title: z.string().nullable() })) })),
    failed: z.array(z.object({ sourceId: z.string(), title: z.string().nullable(), cause: z.string() })),
    warnings: z.array(z.object({ sourceId: z.string(), title: z.string().nullable(), message: z.string() })),
  })
  .meta({ id: 'ImportReport' });

export type ImportReport = z.infer<typeof ReportSchema>;

const ProgressSchema = z.object({
  phase: z.enum(['queued', 'structure', 'items', 'links', 'menus', 'done']),
  processed: z.number().describe('Source items handled so far'),
  total: z.number().describe('Source items the analysis counted'),
});

export type ImportProgress = z.infer<typeof ProgressSchema>;

export const ImportJobSchema = z
  .object({
    id: z.string(),
    state: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    analysisId: z.string(),
    progress: ProgressSchema,
    attempts: z.number(),
    lastError: z.string().nullable().describe('Why the last attempt stopped; an attempt cut off is resumed where it stopped'),
    report: ReportSchema.optional().describe('When the import has finished'),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'ImportJob' });

export type ImportJobView = z.infer<typeof ImportJobSchema>;

export const AnalysisResponse = AnalysisSchema;
export const ImportJobResponse = z.object({ item: ImportJobSchema });
export const ProgressLine = z.object({ jobId: z.string(), state: z.string(), progress: ProgressSchema, report: ReportSchema.optional(), lastError: z.string().nullable().optional() });
