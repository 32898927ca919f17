import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { notFound } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { toPage, type Page } from '../core/pagination.ts';
import { roles } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, type Transaction } from '../db/dialect.ts';
import { requireCollection } from '../schema/lookup.ts';
import { emitCommentEvent, emitStatusChange } from './events.ts';
import { renderedBody } from './post.ts';
import { commentCursor, commentKey } from './read.ts';
import type { Comment, ModerateBody, ModerationQuery, ReplyBody, UpdateCommentBody } from './schemas.ts';
import * as store from './store.ts';
import { editorComment } from './view.ts';

/**
 * Moderation (decisions/0058): the queue with its filters and text search, bulk moves between states
 * and deletion, editing, and replying as the site. Editors and up: reading the queue shows emails and
 * addresses, so it takes the Editor role as well as the scope.
 */

export const moderationRead = access.scope('content:read', { minRole: roles.editor });
export const moderationWrite = access.scope('content:write', { minRole: roles.editor });

async function slugOf(db: Db, collectionId: string): Promise<string> {
  return (await store.collectionSlugs(db, [collectionId])).get(collectionId) ?? collectionId;
}

async function lockComment(tx: Transaction, id: string): Promise<store.CommentRow> {
  const [row] = await store.lockComments(tx, [id]);
  if (!row) throw notFound(`Comment ${id}`);
  return row;
}

export const listComments = defineOperation({
  name: 'comments.list',
  access: moderationRead,
  async run(ctx, input: z.output<typeof ModerationQuery>): Promise<Page<Comment>> {
    const collectionId = input.collection === undefined ? undefined : (await requireCollection(ctx.db, input.collection)).id;
    const rows = await store.listComments(ctx.db, { status: input.status, collectionId, entryId: input.entryId, search: input.q, after: commentKey(input.cursor), limit: input.limit });
    const slugs = await store.collectionSlugs(ctx.db, [...new Set(rows.map((row) => row.collection_id))]);
    return toPage(rows, input.limit, commentCursor, (row) => editorComment(row, slugs.get(row.collection_id) ?? row.collection_id));
  },
});

export const getComment = defineOperation({
  name: 'comments.get',
  access: moderationRead,
  async run(ctx, input: { id: string }): Promise<{ item: Comment }> {
    const row = await store.findComment(ctx.db, input.id);
    if (!row) throw notFound(`Comment ${input.id}`);
    return { item: editorComment(row, await slugOf(ctx.db, row.collection_id)) };
  },
});

const statusOfAction = { approve: 'approved', pending: 'pending', spam: 'spam', trash: 'trash' } as const;

export const moderateComments = defineOperation({
  name: 'comments.moderate',
  access: moderationWrite,
  async run(ctx, input: z.output<typeof ModerateBody>): Promise<{ changed: number }> {
    return inTransaction(ctx.db, async (tx) => {
      const rows = await store.lockComments(tx, input.ids);
      const slugs = await store.collectionSlugs(tx, [...new Set(rows.map((row) => row.collection_id))]);
      const slug = (row: store.CommentRow) => slugs.get(row.collection_id) ?? row.collection_id;
      if (input.action === 'delete') {
        for (const row of rows) await emitCommentEvent(ctx, tx, 'comment:afterDelete', row, slug(row));
        await store.deleteComments(tx, rows.map((row) => row.id));
        return { changed: rows.length };
      }
      const status = statusOfAction[input.action];
      const moving = rows.filter((row) => row.status !== status);
      const now = isoNow(ctx.clock);
      await store.setStatus(tx, moving.map((row) => row.id), status, now);
      for (const row of moving) await emitStatusChange(ctx, tx, { ...row, status, updated_at: now }, row.status, slug(row));
      return { changed: moving.length };
    });
  },
});

export const updateComment = defineOperation({
  name: 'comments.update',
  access: moderationWrite,
  async run(ctx, input: { id: string } & z.output<typeof UpdateCommentBody>): Promise<{ item: Comment }> {
    return inTransaction(ctx.db, async (tx) => {
      const row = await lockComment(tx, input.id);
      const changes: Parameters<typeof store.updateComment>[2] = { updated_at: isoNow(ctx.clock) };
      if (input.body !== undefined) Object.assign(changes, { body: input.body, body_html: renderedBody(input.body) });
      if (input.authorName !== undefined) changes.author_name = input.authorName;
      if (input.authorUrl !== undefined) changes.author_url = input.authorUrl;
      await store.updateComment(tx, row.id, changes);
      const updated = { ...row, ...changes };
      const slug = await slugOf(tx, row.collection_id);
      await emitCommentEvent(ctx, tx, 'comment:afterUpdate', updated, slug);
      return { item: editorComment(updated, slug) };
    });
  },
});

/** An editor's answer, in the site's name: approved at once, carrying the editor's account. */
export const replyToComment = defineOperation({
  name: 'comments.reply',
  access: moderationWrite,
  async run(ctx, input: { id: string } & z.output<typeof ReplyBody>): Promise<{ item: Comment }> {
    const bodyHtml = renderedBody(input.body);
    return inTransaction(ctx.db, async (tx) => {
      const parent = await lockComment(tx, input.id);
      const actor = ctx.actor;
      const row = store.newCommentRow({
        id: newId(),
        collectionId: parent.collection_id,
        entryId: parent.entry_id,
        parent,
        status: 'approved',
        author: actor ? { name: actor.name, email: actor.email, userId: actor.userId } : { name: 'Site' },
        body: input.body,
        bodyHtml,
        createdAt: isoNow(ctx.clock),
      });
      await store.insertComment(tx, row);
      const slug = await slugOf(tx, row.collection_id);
      await emitCommentEvent(ctx, tx, 'comment:afterCreate', row, slug);
      await emitCommentEvent(ctx, tx, 'comment:afterApprove', row, slug);
      return { item: editorComment(row, slug) };
    });
  },
});
