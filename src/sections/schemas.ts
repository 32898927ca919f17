import { z } from 'zod';
import { urlSafeSlug } from '../core/schemas.ts';
import { PortableTextBlocks, PortableTextInput } from '../content/portable-text-schema.ts';
import { pageQuery } from '../core/pagination.ts';

/** Where a section came from: made by a user, shipped by a theme, or brought in by an import. */
export const sectionSources = ['user', 'theme', 'import'] as const;

const SectionSlug = urlSafeSlug('URL-safe slug, unique among sections');
const Title = z.string().trim().min(1).max(200);
const Keywords = z.array(z.string().trim().min(1).max(100)).max(50).describe('Words an editor finds the section by');
const Source = z.enum(sectionSources);

export const SectionParams = z.object({ slug: z.string().min(1).max(200).describe('Section slug') });

export const ListSectionsQuery = z.object({
  source: Source.optional().describe('Only sections from this source'),
  search: z.string().min(1).max(200).optional().describe('Case-insensitive text in the title, slug or a keyword'),
  ...pageQuery(50),
});

export const CreateSectionBody = z.strictObject({
  slug: SectionSlug,
  title: Title,
  keywords: Keywords.default([]),
  content: PortableTextInput,
  source: Source.default('user').describe('Default user'),
});

export const UpdateSectionBody = z.strictObject({
  slug: SectionSlug.optional().describe('A new slug; widgets showing the section follow it'),
  title: Title.optional(),
  keywords: Keywords.optional(),
  content: PortableTextInput.optional(),
  source: Source.optional(),
});

export const SectionSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    keywords: z.array(z.string()),
    content: PortableTextBlocks,
    source: Source,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Section' });

export type Section = z.infer<typeof SectionSchema>;

export const SectionItemResponse = z.object({ item: SectionSchema });
export const SectionListResponse = z.object({ items: z.array(SectionSchema), nextCursor: z.string().optional() });
