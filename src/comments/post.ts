import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { MarkdownLimitError } from '../content/markdown-limits.ts';
import { inTransaction, lockRowsShared, type Transaction } from '../db/dialect.ts';
import { requireCollection } from '../schema/lookup.ts';
import type { LoadedCollection } from '../schema/store.ts';
import type { CommentSettings } from '../schema/types.ts';
import { emitCommentEvent } from './events.ts';
import { spendCommentLimits } from './limits.ts';
import { renderCommentBody } from './render.ts';
import type { PostCommentBody, PublicComment } from './schemas.ts';
import * as store from './store.ts';
import { publicComment } from './view.ts';

/**
 * The public's comment (decisions/0058): on a published entry of a collection that takes comments,
 * within the rate limits, held for moderation as the collection says. One small transaction: the
 * collection and its settings come from the schema cache, the Markdown is rendered before it begins.
 */

export type PostCommentInput = { collection: string; id: string; userAgent?: string } & z.output<typeof PostCommentBody>;
export type PostedComment = { item: PublicComment & { status: 'pending' | 'approved' } };

const dayMs = 86_400_000;

/** The rendered body, or a 400 on `body` for Markdown nested beyond what the renderer takes. */
export function renderedBody(body: string, path = 'body'): string {
  try {
    return renderCommentBody(body);
  } catch (error) {
    if (error instanceof MarkdownLimitError) throw validationError([{ path, message: error.message }]);
    throw error;
  }
}

function refused(path: string, message: string): never {
  throw validationError([{ path, message }], message);
}

/** Who is commenting: a signed-in user as their account says, else the name and email given. */
function commenter(ctx: AuthorizedContext, input: PostCommentInput): { name: string; email: string; userId: string | null } {
  if (ctx.actor) return { name: ctx.actor.name, email: ctx.actor.email.toLowerCase(), userId: ctx.actor.userId };
  if (input.name === undefined) refused('name', 'Required');
  if (input.email === undefined) refused('email', 'Required');
  return { name: input.name, email: input.email.toLowerCase(), userId: null };
}

function openSettings(collection: LoadedCollection): CommentSettings {
  const settings = collection.comments;
  if (!settings?.enabled) refused('id', `Comments are off for ${collection.slug}`);
  return settings;
}

/** Refuses an entry that is not live, or whose comments closed `closeAfterDays` after it was published. */
async function requireOpenEntry(ctx: AuthorizedContext, tx: Transaction, collection: LoadedCollection, settings: CommentSettings, id: string): Promise<void> {
  const entry = await store.entryState(tx, collection.tableName, id);
  if (!entry || entry.deleted || entry.status !== 'published') refused('id', 'No published entry with this id takes comments');
  if (settings.closeAfterDays !== null && entry.publishedAt !== null && Date.parse(entry.publishedAt) + settings.closeAfterDays * dayMs <= ctx.clock.now().getTime()) {
    refused('id', `Comments on this entry closed ${settings.closeAfterDays} days after it was published`);
  }
}

/** The approved comment of the same entry being answered. */
async function requireParent(tx: Transaction, entryId: string, parentId: string): Promise<store.CommentRow> {
  const parent = (await lockRowsShared(tx, tx.kysely.selectFrom('comments').selectAll().where('id', '=', parentId)).executeTakeFirst()) as store.CommentRow | undefined;
  if (!parent || parent.entry_id !== entryId || parent.status !== 'approved') refused('parentId', 'No approved comment of this entry has this id');
  return parent;
}

async function initialStatus(tx: Transaction, settings: CommentSettings, author: { email: string; userId: string | null }): Promise<'pending' | 'approved'> {
  if (settings.moderation === 'none') return 'approved';
  if (settings.moderation === 'all') return 'pending';
  return (await store.hasApprovedComment(tx, author)) ? 'approved' : 'pending';
}

/**
 * Anyone may post; a caller who signs in (token or session) with `content:read` posts as their account.
 * A scoped rule open to the public rather than `public`, since only a scoped rule reads credentials.
 */
const postAccess = access.scope('content:read', { publicWhen: async () => true });

export const postComment = defineOperation({
  name: 'comments.post',
  access: postAccess,
  async run(ctx, input: PostCommentInput): Promise<PostedComment> {
    const collection = await requireCollection(ctx.db, input.collection);
    const settings = openSettings(collection);
    const author = commenter(ctx, input);
    const bodyHtml = renderedBody(input.body);
    const now = isoNow(ctx.clock);
    const id = newId();
    // A bot filled in the field people never see: answered as if held for moderation, stored nowhere.
    if (input.honeypot) return { item: { id, authorName: author.name, byUser: false, bodyHtml, createdAt: now, status: 'pending' } };
    return inTransaction(ctx.db, async (tx) => {
      await requireOpenEntry(ctx, tx, collection, settings, input.id);
      const parent = input.parentId === undefined ? undefined : await requireParent(tx, input.id, input.parentId);
      await spendCommentLimits({ ...ctx, db: tx }, input.id, author.email);
      const status = await initialStatus(tx, settings, author);
      const row = store.newCommentRow({
        id,
        collectionId: collection.id,
        entryId: input.id,
        parent,
        status,
        author: { name: author.name, email: author.email, url: input.url, userId: author.userId, address: ctx.clientAddress, agent: input.userAgent },
        body: input.body,
        bodyHtml,
        createdAt: now,
      });
      await store.insertComment(tx, row);
      await emitCommentEvent(ctx, tx, 'comment:afterCreate', row, collection.slug);
      if (status === 'approved') await emitCommentEvent(ctx, tx, 'comment:afterApprove', row, collection.slug);
      return { item: { ...publicComment(row), status } };
    });
  },
});
