import type { z } from 'zod';
import { contentRead, contentWrite } from '../content/access.ts';
import { isoNow } from '../core/clock.ts';
import { AppError, notFound } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { defineOperation } from '../core/operation.ts';
import { jsonColumn, partialUpdate } from '../core/partial-update.ts';
import { pageByKey, type Page } from '../core/pagination.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import * as widgetStore from '../widgets/store.ts';
import type { CreateSectionBody, ListSectionsQuery, Section, UpdateSectionBody } from './schemas.ts';
import * as store from './store.ts';

/** A stored row as the API shows it; keywords and content are JSON text in the table. */
function toSection(row: store.SectionRow): Section {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    keywords: JSON.parse(row.keywords) as string[],
    content: JSON.parse(row.content) as Section['content'],
    source: row.source as Section['source'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function requireSection(db: Db, slug: string): Promise<store.SectionRow> {
  const section = await store.findSection(db, slug);
  if (!section) throw notFound(`Section ${slug}`);
  return section;
}

function slugTaken(slug: string): AppError {
  return new AppError('DUPLICATE_SLUG', `A section with slug ${slug} already exists`, { slug });
}

export const listSections = defineOperation({
  name: 'sections.list',
  access: contentRead,
  async run(ctx, input: z.output<typeof ListSectionsQuery>): Promise<Page<Section>> {
    const rowsAfter = (afterSlug: string | undefined) => store.listSections(ctx.db, { source: input.source, search: input.search, afterSlug, limit: input.limit });
    return pageByKey(input, (row) => row.slug, rowsAfter, toSection);
  },
});

export const getSection = defineOperation({
  name: 'sections.get',
  access: contentRead,
  async run(ctx, input: { slug: string }): Promise<{ item: Section }> {
    return { item: toSection(await requireSection(ctx.db, input.slug)) };
  },
});

export const createSection = defineOperation({
  name: 'sections.create',
  access: contentWrite,
  async run(ctx, input: z.output<typeof CreateSectionBody>): Promise<{ item: Section }> {
    const now = isoNow(ctx.clock);
    const row: store.SectionRow = {
      id: newId(),
      slug: input.slug,
      title: input.title,
      keywords: JSON.stringify(input.keywords),
      content: JSON.stringify(input.content),
      source: input.source,
      created_at: now,
      updated_at: now,
    };
    if (!(await store.insertSection(ctx.db, row))) throw slugTaken(input.slug);
    return { item: toSection(row) };
  },
});

/** Any of slug, title, keywords, content and source; widgets showing the section follow a new slug. */
export const updateSection = defineOperation({
  name: 'sections.update',
  access: contentWrite,
  async run(ctx, input: { slug: string; body: z.output<typeof UpdateSectionBody> }): Promise<{ item: Section }> {
    return inTransaction(ctx.db, async (db) => {
      const section = await requireSection(db, input.slug);
      const { body } = input;
      const changes = partialUpdate(
        { slug: body.slug, title: body.title, keywords: jsonColumn(body.keywords), content: jsonColumn(body.content), source: body.source },
        isoNow(ctx.clock),
      );
      if (!(await store.updateSection(db, section.id, changes))) throw slugTaken(body.slug!);
      if (body.slug !== undefined && body.slug !== section.slug) await widgetStore.renameSectionReferences(db, section.slug, body.slug);
      return { item: toSection({ ...section, ...changes }) };
    });
  },
});

/** Widgets showing the section stay, and read it as missing. */
export const deleteSection = defineOperation({
  name: 'sections.delete',
  access: contentWrite,
  async run(ctx, input: { slug: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (db) => store.deleteSection(db, (await requireSection(db, input.slug)).id));
    return { success: true };
  },
});
