import { z } from 'zod';
import { queryInteger } from '../core/pagination.ts';
import { fieldTypes } from '../schema/types.ts';

const PostTypeName = z.string().min(1).max(100).describe('A WordPress post type: post, page, or a custom one');
const CollectionSlug = z.string().min(1).max(63).describe('Target collection slug');

const ImportOptions = z.strictObject({
  includeMedia: z.boolean().default(false).describe('Download the attachments into the media library after the entries (as POST /import/legacy/media does) and point the imported entries, featured images included, at them'),
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

const ExecuteStream = z
  .boolean()
  .default(false)
  .describe('Answer NDJSON while the import runs: a line at each change of its progress or state (as GET /import/jobs/:id/progress), the last the finished job with its report');

/** Form B: an upload already analysed. */
export const ExecuteJsonBody = z.strictObject({
  analysisId: z.string().min(1).max(64),
  options: ImportOptions.default({ includeMedia: false, includeTaxonomies: true, includeMenus: true }),
  postTypeMappings: z.record(PostTypeName, z.strictObject({ collection: CollectionSlug })).optional().describe('Default: each analysed type to its suggested collection'),
  authorMapping: AuthorMapping.optional(),
  stream: ExecuteStream,
});

/** Form A's `config` part: a JSON object. */
export const ExecuteConfig = z.strictObject({
  postTypeMappings: z.record(PostTypeName, z.strictObject({ collection: CollectionSlug })),
  options: ImportOptions.default({ includeMedia: false, includeTaxonomies: true, includeMenus: true }),
  authorMapping: AuthorMapping.optional(),
  stream: ExecuteStream,
});

/** The request header execute reads: RFC 7240's `Prefer`. */
export const ExecuteHeaders = z.object({
  prefer: z
    .string()
    .optional()
    .describe('`respond-async`: answer 202 Accepted at once with the queued job and its status URL in Location, instead of when the import has finished'),
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
        seo: z.boolean().describe('Items carry Yoast or Rank Math meta: the collection gets seo support, and the meta fills its SEO values'),
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

export const AnalysisSummarySchema = z
  .object({
    analysisId: z.string(),
    source: z.string(),
    site: z.object({ title: z.string(), url: z.string(), language: z.string().optional() }),
    entries: z.number().describe('Items of the post types found, to import as entries'),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'ImportAnalysisSummary' });

export const AnalysisListResponse = z.object({ items: z.array(AnalysisSummarySchema) });
export const AnalysesQuery = z.strictObject({ limit: queryInteger(1, 50, 10).describe('How many, 1-50') });

export const PrepareResponse = z.object({
  items: z.array(z.object({ postType: z.string(), collection: z.string(), created: z.boolean(), fieldsAdded: z.array(z.string()) })),
});

const MediaFileLine = z.object({
  type: z.literal('file'),
  current: z.number(),
  total: z.number(),
  id: z.string(),
  url: z.string(),
  filename: z.string(),
  status: z.enum(['downloaded', 'reused', 'existing', 'failed', 'skipped']).describe('downloaded: a new media item; reused: the same bytes were in the library; existing: downloaded by an earlier run; failed: for manual handling; skipped: the quota stopped the import'),
  mediaId: z.string().optional(),
  error: z.string().optional(),
});

export const RewriteResultSchema = z
  .object({
    entries: z.number().describe('Imported entries with a URL replaced'),
    sections: z.number().describe('Sections (from reusable blocks) with a URL replaced'),
    urls: z.number().describe('URLs replaced in all'),
  })
  .meta({ id: 'ImportRewriteResult' });

export const MediaResultSchema = z
  .object({
    type: z.literal('result'),
    total: z.number(),
    downloaded: z.number(),
    reused: z.number(),
    existing: z.number(),
    failed: z.number(),
    skipped: z.number(),
    failures: z.array(z.object({ id: z.string(), url: z.string(), error: z.string() })).describe('Downloads that failed after their retries: for manual handling'),
    urlMap: z.record(z.string(), z.string()).describe('Old URL → the media item\'s URL'),
    stopped: z
      .object({ reason: z.literal('quota'), message: z.string(), usage: z.object({ usedBytes: z.number(), quotaBytes: z.number() }) })
      .optional()
      .describe('Set when the storage quota (MEDIA_STORAGE_QUOTA) stopped the import'),
    rewritten: RewriteResultSchema.describe('The URL rewrite run after the downloads, with urlMap'),
  })
  .meta({ id: 'ImportMediaResult' });

const ReportSchema = z
  .object({
    counts: z.record(z.string(), z.number()).describe('Entries imported per collection'),
    sections: z.number().describe('Reusable blocks imported as sections'),
    terms: z.number(),
    bylines: z.number(),
    menus: z.number(),
    menuItems: z.number(),
    comments: z.object({ approved: z.number(), pending: z.number(), spam: z.number(), trash: z.number() }).describe('Comments imported with the entries, by moderation state'),
    alreadyImported: z.number().describe('Items an earlier import of the same source made, left as they are'),
    redirects: z.number().describe("Redirects made from imported entries' old addresses: their links on the old site and earlier slugs (docs/decisions/0057)"),
    media: z.object({
      attachments: z.number(),
      featuredImages: z.number(),
      downloads: MediaResultSchema.omit({ type: true, urlMap: true }).optional().describe('With includeMedia: what the media phase did (the URL map is stored with the downloads: POST /import/legacy/rewrite-urls uses it)'),
      pending: z
        .array(z.object({ id: z.string(), url: z.string() }))
        .optional()
        .describe('With includeMedia, when some attachments are still to download (failed, or stopped by the quota): for manual handling, or POST /import/legacy/media again'),
    }),
    skipped: z.array(z.object({ reason: z.string(), count: z.number(), items: z.array(z.object({ sourceId: z.string(), title: z.string().nullable() })) })),
    failed: z.array(z.object({ sourceId: z.string(), title: z.string().nullable(), cause: z.string() })),
    warnings: z.array(z.object({ sourceId: z.string(), title: z.string().nullable(), message: z.string(), entry: z.object({ collection: z.string(), id: z.string() }).optional().describe('The entry the item became') })),
  })
  .meta({ id: 'ImportReport' });

export type ImportReport = z.infer<typeof ReportSchema>;

const ProgressSchema = z.object({
  phase: z.enum(['queued', 'structure', 'items', 'links', 'menus', 'media', 'done']),
  processed: z.number().describe('Source items handled so far; in the links phase, items whose links (parents, featured images, reusable blocks) are resolved; in the media phase, files'),
  total: z.number().describe('Source items the analysis counted; in the links phase, the items with links to resolve; in the media phase, the attachments to download'),
  file: MediaFileLine.optional().describe('In the media phase: the file handled last, as POST /import/legacy/media streams it'),
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
export const ImportJobListResponse = z.object({ items: z.array(ImportJobSchema) });
export const ImportJobsQuery = z.strictObject({ limit: queryInteger(1, 50, 10).describe('How many, 1-50') });
export const ResumeBody = z.strictObject({ stream: ExecuteStream }).default({ stream: false });
export const ProgressLine = z.object({ jobId: z.string(), state: z.string(), progress: ProgressSchema, report: ReportSchema.optional(), lastError: z.string().nullable().optional() });

/** An http(s) URL, as the attachment records and content have them. */
const HttpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:$/.test(URL.parse(value)?.protocol ?? ''), 'Must be an http or https URL');

export const MediaImportBody = z.strictObject({
  attachments: z
    .array(z.strictObject({ id: z.union([z.string().min(1).max(64), z.number().int()]).transform(String), url: HttpUrl }))
    .min(1)
    .max(100_000)
    .describe('The attachments to download: the report\'s media.pending, or any list of source id and URL'),
  stream: z.boolean().default(false).describe('Answer NDJSON: a line per file as it is handled, then the result'),
});

export const MediaLineSchema = z.union([MediaFileLine, MediaResultSchema]);

export const RewriteBody = z.strictObject({
  urlMap: z
    .record(HttpUrl, HttpUrl)
    .refine((map) => Object.keys(map).length <= 100_000, 'At most 100,000 URLs')
    .optional()
    .describe('Old URL → new URL; without it, every file the media imports downloaded (the map stored with them)'),
});

/**
 * A token goes out in an Authorization header, which carries visible ASCII only: a line break would
 * split the header, and anything else is refused by the HTTP client (a 500 if it got that far).
 */
export const AccessToken = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[\x21-\x7e]+$/, 'Must be visible ASCII characters only (no spaces, line breaks or other characters), as an HTTP header carries it');

/** `POST /import/legacy/analyze` with JSON: a live site read with an access token the client already holds. */
export const HostedAnalyzeBody = z.strictObject({
  source: z.enum(['legacy-hosted']).describe('The source reading the site: legacy-hosted (WordPress.com over OAuth)'),
  url: HttpUrl.describe('The site\'s address, e.g. https://example.wordpress.com'),
  accessToken: AccessToken.describe('A WordPress.com OAuth access token for the site (the callback of GET /import/legacy/connect gets one)'),
});

export const ConnectQuery = z.strictObject({ url: HttpUrl.describe('The WordPress.com site to connect') });
export const ConnectBody = ConnectQuery;

export const ConnectResponse = z
  .object({
    authorizeUrl: z.string().describe('WordPress.com\'s authorization page: send the admin there'),
    redirectUri: z.string().describe('Where WordPress.com sends the admin back (the application must have it registered)'),
    expiresAt: z.string().describe('Until when the connection\'s state is accepted'),
  })
  .meta({ id: 'ImportConnect' });

export const CallbackQuery = z.object({
  state: z.string().min(1).max(200).describe('The state connect sent along'),
  code: z.string().min(1).max(2000).optional().describe('The authorization code'),
  error: z.string().max(200).optional().describe('Why WordPress.com did not authorize (access_denied)'),
  error_description: z.string().max(2000).optional(),
});

export const ProbeBody = z.strictObject({ url: HttpUrl.describe('The site\'s address') });

export const ProbeResponse = z
  .object({
    url: z.string(),
    platform: z.string().describe('wordpress (self-hosted), wordpress.com, or unknown'),
    sourceId: z.string().nullable().describe('The source that recognised the site'),
    confidence: z.enum(['definite', 'likely', 'possible']).nullable(),
    detected: z.record(z.string(), z.unknown()).describe('What the source found: title, hosting, counts of public posts, pages and media'),
    suggestedAction: z.object({
      action: z.enum(['connect-oauth', 'upload-export', 'upload-file']),
      message: z.string(),
      connectUrl: z.string().optional().describe('With connect-oauth: GET it (signed in as an admin) to be sent to WordPress.com\'s authorization page'),
    }),
  })
  .meta({ id: 'ImportProbe' });
