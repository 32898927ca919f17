import type { z } from 'zod';
import { contentRead } from '../content/access.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { notFound } from '../core/errors.ts';
import { defineOperation } from '../core/operation.ts';
import { toPage, type Page } from '../core/pagination.ts';
import { RawJson } from '../core/raw-json.ts';
import type { Db } from '../db/connection.ts';
import { ReadCache } from '../db/read-cache.ts';
import { requireCollection } from '../schema/lookup.ts';
import type { CommentCountsQuery, CommentThread, EntryCommentsQuery } from './schemas.ts';
import * as store from './store.ts';
import { publicComment } from './view.ts';

/**
 * What the public reads of comments (decisions/0058): an entry's approved threads a page at a time,
 * each with its approved replies, and counts per entry. Readable as published content is.
 */

/** A cursor names the last thread of the page before by its date and id (the keyset of the index). */
export function commentKey(cursor: string | undefined): store.CommentKey | undefined {
  if (cursor === undefined) return undefined;
  const [createdAt, id] = decodeCursor(cursor, 2);
  return [String(createdAt), String(id)];
}

export function commentCursor(row: Pick<store.CommentRow, 'created_at' | 'id'>): string {
  return encodeCursor([row.created_at, row.id]);
}

/** Replies whose parent is not shown (held, spam, trash) are hidden with it; parents come before their replies. */
function visibleReplies(threads: readonly store.PublicCommentRow[], replies: readonly store.PublicCommentRow[]): Map<string, store.PublicCommentRow[]> {
  const shown = new Set(threads.map((thread) => thread.id));
  const byThread = new Map<string, store.PublicCommentRow[]>();
  for (const reply of replies) {
    if (!shown.has(reply.parent_id!)) continue;
    shown.add(reply.id);
    const thread = byThread.get(reply.thread_id);
    if (thread) thread.push(reply);
    else byThread.set(reply.thread_id, [reply]);
  }
  return byThread;
}

/** A page of an entry's approved threads, each with its visible replies. */
async function readPage(db: Db, input: z.output<typeof EntryCommentsQuery> & { id: string }): Promise<Page<CommentThread>> {
  const threads = await store.approvedThreads(db, input.id, input.order, commentKey(input.cursor), input.limit);
  const kept = threads.slice(0, input.limit);
  const replies = visibleReplies(kept, await store.approvedReplies(db, kept.map((thread) => thread.id)));
  return toPage(threads, input.limit, commentCursor, (thread) => ({ ...publicComment(thread), replies: (replies.get(thread.id) ?? []).map(publicComment) }));
}

/**
 * Pages as JSON text, as of the last change to `comments` (read-cache.ts): a popular entry's first
 * page is read again and again between two comments, and building it (two reads of up to a few
 * hundred rows, then their JSON) was most of the request. The text goes into the envelope as it is
 * (raw-json.ts). `collections` too: deleting one deletes its comments by the foreign key's cascade,
 * which this process's own write count (SQLite) does not see as a write to `comments`. On PostgreSQL
 * `comments` notifies every process (migration 0029, decisions/0058). The entry's state is read each
 * time, outside the cache (entry tables change with every save and do not notify): an entry unpublished
 * or trashed answers 404 at once. At most a few hundred pages of a few dozen KB each.
 */
const pages = new ReadCache<RawJson>(300, ['comments', 'collections']);

export const listEntryComments = defineOperation({
  name: 'comments.listForEntry',
  access: contentRead,
  /** The JSON text of a `Page<CommentThread>`. */
  async run(ctx, input: { collection: string; id: string } & z.output<typeof EntryCommentsQuery>): Promise<RawJson> {
    const collection = await requireCollection(ctx.db, input.collection);
    const entry = await store.entryState(ctx.db, collection.tableName, input.id);
    if (!entry || entry.deleted || entry.status !== 'published') throw notFound(`Entry ${input.id}`);
    const key = JSON.stringify([input.id, input.order, input.cursor ?? null, input.limit]);
    return (await pages.get(ctx.db, key, async () => new RawJson(JSON.stringify(await readPage(ctx.db, input)))))!;
  },
});

export const countComments = defineOperation({
  name: 'comments.counts',
  access: contentRead,
  async run(ctx, input: z.output<typeof CommentCountsQuery>): Promise<{ counts: Record<string, number> }> {
    const collection = await requireCollection(ctx.db, input.collection);
    const counted = await store.approvedCounts(ctx.db, collection.id, input.ids);
    return { counts: Object.fromEntries(input.ids.map((id) => [id, counted.get(id) ?? 0])) };
  },
});
