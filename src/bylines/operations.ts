import type { z } from 'zod';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { AppError, notFound, validationError } from '../core/errors.ts';
import { defineOperation } from '../core/operation.ts';
import { toPage, type Page } from '../core/pagination.ts';
import { contentRead, contentWrite } from '../content/access.ts';
import { findUserById } from '../users/store.ts';
import { addByline, toByline } from './credits.ts';
import type { Byline, CreateBylineBody, ListBylinesQuery } from './schemas.ts';
import * as store from './store.ts';

export const listBylines = defineOperation({
  name: 'bylines.list',
  access: contentRead,
  async run(ctx, input: z.output<typeof ListBylinesQuery>): Promise<Page<Byline>> {
    let afterSlug: string | undefined;
    if (input.cursor !== undefined) {
      const [slug] = decodeCursor(input.cursor, 1);
      if (typeof slug !== 'string') throw validationError([{ path: 'cursor', message: 'Malformed cursor' }]);
      afterSlug = slug;
    }
    const rows = await store.listBylineRows(ctx.db, { afterSlug, limit: input.limit });
    return toPage(rows, input.limit, (row) => encodeCursor([row.slug]), toByline);
  },
});

export const getByline = defineOperation({
  name: 'bylines.get',
  access: contentRead,
  async run(ctx, input: { id: string }): Promise<{ item: Byline }> {
    const row = await store.findBylineById(ctx.db, input.id);
    if (!row) throw notFound(`Byline ${input.id}`);
    return { item: toByline(row) };
  },
});

/** A guest byline, or a user's (one per user: asking again for the same user is a 409). */
export const createByline = defineOperation({
  name: 'bylines.create',
  access: contentWrite,
  async run(ctx, input: z.output<typeof CreateBylineBody>): Promise<{ item: Byline }> {
    if (input.userId !== undefined) {
      if (!(await findUserById(ctx.db, input.userId))) throw validationError([{ path: 'userId', message: `No user ${input.userId}` }]);
      const existing = await store.findBylineByUser(ctx.db, input.userId);
      if (existing) throw new AppError('CONFLICT', `User ${input.userId} already has byline ${existing.id}`, { bylineId: existing.id });
    }
    if (input.slug !== undefined && (await store.bylineSlugsTaken(ctx.db, [input.slug])).size > 0) {
      throw new AppError('DUPLICATE_SLUG', `A byline with slug ${input.slug} already exists`);
    }
    return { item: toByline(await addByline(ctx.db, ctx.clock, input)) };
  },
});
