import type { Context } from '../src/core/context.ts';
import { newId } from '../src/core/ids.ts';
import { runOperation } from '../src/core/operation.ts';
import { createEntry } from '../src/content/operations.ts';
import { renderCommentBody } from '../src/comments/render.ts';
import { insertComments, newCommentRow, type CommentRow } from '../src/comments/store.ts';
import { createCollection, createField } from '../src/schema/operations.ts';

/**
 * Issue 34's comment figures: posting through the public endpoint with moderation on (first-time: each
 * post a new commenter, so the check for an earlier approved comment runs every time), and the first
 * page of 50 approved threads of an entry holding 300 approved comments (100 threads of 3).
 */

const threads = 100;
const repliesPerThread = 2;

/** Limits high enough for the bench's one client address: it measures the work, limits counted. */
export const benchCommentLimits = { COMMENT_CLIENT_LIMIT: '1000000', COMMENT_ENTRY_LIMIT: '1000000' };

export interface SeededComments {
  /** The entry the read scenario reads, and the one the post scenario posts to. */
  readPath: string;
  postPath: string;
}

export async function seedBenchComments(ctx: Context): Promise<SeededComments> {
  const { item: collection } = await runOperation(createCollection, ctx, () => ({ slug: 'bench_comments', label: 'Commented', comments: { enabled: true, moderation: 'first-time' as const, closeAfterDays: null } }));
  await runOperation(createField, ctx, () => ({ collection: 'bench_comments', slug: 'title', label: 'Title', type: 'string' as const }));
  const entry = async (title: string) => (await runOperation(createEntry, ctx, () => ({ collection: 'bench_comments', data: { title }, status: 'published' as const }))).item;
  const read = await entry('Read');
  const posted = await entry('Posted to');
  const rows: CommentRow[] = [];
  const start = Date.now() - threads * 60_000;
  const comment = (n: number, parent: CommentRow | undefined): CommentRow => {
    const at = new Date(start + n * 1000).toISOString();
    const body = `Comment ${n} with *emphasis* and a [link](https://example.com/${n}).`;
    const author = { name: `Reader ${n}`, email: `reader${n}@example.com` };
    return newCommentRow({ id: newId(), collectionId: collection.id, entryId: read.id, parent, status: 'approved', author, body, bodyHtml: renderCommentBody(body), createdAt: at });
  };
  for (let thread = 0; thread < threads; thread += 1) {
    const first = comment(thread * 10, undefined);
    rows.push(first);
    for (let reply = 1; reply <= repliesPerThread; reply += 1) rows.push(comment(thread * 10 + reply, first));
  }
  await insertComments(ctx.db, rows);
  return { readPath: `/_cms/api/content/bench_comments/${read.id}/comments?limit=50`, postPath: `/_cms/api/content/bench_comments/${posted.id}/comments` };
}

/** A new commenter each time, so first-time moderation holds every post and looks each one up. */
export function benchCommentBody(n: number) {
  return { name: `Visitor ${n}`, email: `visitor${n}@example.com`, body: `Posted comment ${n}, *with* a little Markdown.` };
}
