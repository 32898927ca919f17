import { z } from 'zod';
import { LocaleTag } from '../core/locale.ts';
import { pageQuery } from '../core/pagination.ts';
import { BylineCredits } from '../bylines/schemas.ts';
import { BooleanQuery } from '../core/schemas.ts';
import { CollectionSchemaOut, FieldSchema } from '../schema/schemas.ts';
import { SeoInput, SeoSchema } from '../seo/schemas.ts';

export const entryStatuses = ['draft', 'published', 'scheduled'] as const;

const CollectionSlug = z.string().min(1).max(200).describe('Collection slug');
const EntryRef = z.string().min(1).max(200).describe('Entry id (ULID) or slug');
const Locale = LocaleTag.describe('BCP 47 locale, e.g. en or pt-BR');
const EntryData = z.record(z.string(), z.unknown()).describe('Field values by field slug; portableText fields also take a Markdown string');
const EntrySlug = z.string().min(1).max(200).describe('URL slug; generated from data.title (else data.name) when omitted');
const Rev = z.string().describe('The _rev of the version this change is based on; a stale or malformed one is a 409');

export const CollectionParams = z.object({ collection: CollectionSlug });
export const EntryParams = z.object({ collection: CollectionSlug, id: EntryRef });

export const ListEntriesQuery = z.object({
  status: z.enum(entryStatuses).optional().describe('Only entries with this status'),
  orderBy: z.string().min(1).max(63).optional().describe('createdAt (default), updatedAt, publishedAt, scheduledAt, slug, or a sortable field'),
  order: z.enum(['asc', 'desc']).default('desc').describe('Sort direction, default desc'),
  locale: Locale.optional(),
  term: z
    .string()
    .min(3)
    .max(264)
    .regex(/^[a-z][a-z0-9_-]*:[^:]+$/, 'Must be taxonomy:term-slug, e.g. category:news')
    .optional()
    .describe('Only entries with this term, as taxonomy:term-slug (e.g. category:news); in a hierarchical taxonomy, its descendants count too'),
  author: z.string().min(1).max(200).optional().describe('Only entries this user created (a user id, as GET /auth/me gives)'),
  q: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Only entries whose title contains this text (case-insensitive; % and _ match literally): the title field, else the first string field, else the slug. Readers match the published title only',
    ),
  ...pageQuery(50),
});

export const AuthorsQuery = z.object({
  collection: CollectionSlug.describe("The collection whose entries' creators are listed"),
  q: z.string().min(1).max(200).optional().describe('Only users whose name contains this text (case-insensitive)'),
  ...pageQuery(50),
});

export const AuthorsResponse = z.object({
  items: z.array(z.object({ id: z.string().describe("User id, as the list's author filter takes it"), name: z.string() }).meta({ id: 'Author' })),
  nextCursor: z.string().optional(),
});

export const ListTrashQuery = z.object({ ...pageQuery(50) });

export const GetEntryQuery = z.object({ locale: Locale.optional().describe('Locale for a slug lookup') });

export const CreateEntryBody = z.strictObject({
  data: EntryData,
  slug: EntrySlug.optional(),
  status: z.enum(['draft', 'published']).optional().describe('Default draft; published publishes at once'),
  locale: Locale.optional().describe('Default: the site default locale'),
  translationOf: z.string().min(1).max(200).optional().describe('Id of the entry this one translates'),
  bylines: BylineCredits.optional(),
  seo: SeoInput.optional(),
});

export const UpdateEntryBody = z.strictObject({
  data: EntryData.optional().describe('Changed field values; fields left out stay unchanged'),
  slug: z.string().min(1).max(200).optional().describe('A new URL slug; unchanged when omitted'),
  status: z.enum(['draft', 'published']).optional().describe('published saves then publishes; draft saves then unpublishes'),
  bylines: BylineCredits.optional(),
  seo: SeoInput.optional(),
  _rev: Rev.optional(),
});

export const ScheduleBody = z.strictObject({ scheduledAt: z.string().min(1).max(64).describe('Future ISO 8601 date-time') });

export const EntrySchema = z
  .object({
    id: z.string(),
    type: z.string().describe('Collection slug'),
    slug: z.string(),
    status: z.enum(entryStatuses),
    locale: z.string(),
    translationGroup: z.string(),
    data: z.record(z.string(), z.unknown()).describe("The current values (a staged draft's, for editors)"),
    liveData: z.record(z.string(), z.unknown()).optional().describe('The live values, when a draft is staged over a published version'),
    createdAt: z.string(),
    updatedAt: z.string(),
    publishedAt: z.string().optional(),
    scheduledAt: z.string().optional(),
    deletedAt: z.string().optional().describe('Set while the entry is in the trash'),
    bylines: z.array(z.string()).optional().describe('Byline ids credited, in order (GET /bylines); absent when the entry credits nobody'),
    primaryBylineId: z.string().optional().describe('The first credited byline'),
    seo: SeoSchema.optional().describe("Search and social metadata: present when the collection's supports has seo (readers get the live version's)"),
    _rev: z.string(),
  })
  .meta({ id: 'ContentItem' });

export const EntryItemResponse = z.object({ item: EntrySchema });
export const EntryListResponse = z.object({ items: z.array(EntrySchema), nextCursor: z.string().optional() });

export const CompareResponse = z.object({
  published: z.record(z.string(), z.unknown()).nullable().describe('The live values; null when never published'),
  draft: z.record(z.string(), z.unknown()),
  hasChanges: z.boolean().describe('Whether the draft differs from the live version: its field values or its SEO values'),
});

export const TranslationsResponse = z.object({
  translationGroup: z.string(),
  items: z.array(
    z.object({ id: z.string(), locale: z.string(), slug: z.string(), status: z.enum(entryStatuses), updatedAt: z.string(), trashed: z.boolean() }),
  ),
});

export const ContentCollectionsQuery = z.object({ counts: BooleanQuery.optional().describe('Count each collection\'s entries by status too (a count of every row: ask only where shown)') });

export const EntryCounts = z.object({ draft: z.number(), published: z.number(), scheduled: z.number(), trash: z.number() });

export const ContentCollectionsResponse = z.object({
  items: z.array(
    CollectionSchemaOut.extend({
      fields: z.array(FieldSchema),
      counts: EntryCounts.optional().describe('With counts=true: entries by status, the trash apart'),
    }).meta({ id: 'ContentCollection' }),
  ),
});

export const bulkActions = ['publish', 'unpublish', 'trash', 'restore', 'delete'] as const;

export const BulkBody = z.strictObject({
  action: z.enum(bulkActions).describe('What happens to each entry: publish, unpublish, trash (move to the trash), restore (out of the trash), delete (for good; the entry must be in the trash)'),
  ids: z
    .array(z.string().min(1).max(200).describe('Entry id (ULID) or slug'))
    .min(1)
    .max(100)
    .describe('The entries, 1 to 100; each is acted on and answered on its own, in this order'),
});

export const BulkResult = z.union([
  z.object({ id: z.string(), ok: z.literal(true) }),
  z.object({
    id: z.string(),
    ok: z.literal(false),
    error: z.object({ code: z.string(), message: z.string() }).describe("Why this entry was refused, as the single entry's endpoint would answer"),
  }),
]);

export const BulkResponse = z.object({ items: z.array(BulkResult).describe('One result per id, in the order given') });
