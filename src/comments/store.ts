import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { CommentsTable } from '../db/types.ts';

/** The SQL of comments (decisions/0058). */

export const commentStatuses = ['pending', 'approved', 'spam', 'trash'] as const;
export type CommentStatus = (typeof commentStatuses)[number];

export type CommentRow = Selectable<CommentsTable> & { status: CommentStatus };
export type NewCommentRow = Insertable<CommentsTable> & { status: CommentStatus };

/**
 * The thread a comment belongs to: its parent's thread, or its own id when it answers none. Every
 * writer (the public post, an editor's reply, the importer) sets `thread_id` with this.
 */
export function threadIdFor(id: string, parent: Pick<CommentRow, 'thread_id'> | undefined): string {
  return parent ? parent.thread_id : id;
}

/**
 * Adds comments, in the caller's transaction when `db` is one (the importer writes them in its batch).
 * A reply's parent must be written before it, or in the same call ahead of it.
 */
export async function insertComments(db: Db, rows: readonly NewCommentRow[]): Promise<void> {
  if (rows.length > 0) await db.kysely.insertInto('comments').values([...rows]).execute();
}

export async function insertComment(db: Db, row: NewCommentRow): Promise<void> {
  await insertComments(db, [row]);
}

export async function findComment(db: Db, id: string): Promise<CommentRow | undefined> {
  return (await db.kysely.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst()) as CommentRow | undefined;
}
