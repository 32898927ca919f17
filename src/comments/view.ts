import type { CommentSnapshot } from '../plugins/types.ts';
import type { Comment, PublicComment } from './schemas.ts';
import type { CommentRow, PublicCommentRow } from './store.ts';

/** A stored comment as the public, editors and plugins see it. */

export function publicComment(row: PublicCommentRow): PublicComment {
  const comment: PublicComment = { id: row.id, authorName: row.author_name, byUser: row.author_user_id !== null, bodyHtml: row.body_html, createdAt: row.created_at };
  if (row.parent_id !== null) comment.parentId = row.parent_id;
  if (row.author_url !== null) comment.authorUrl = row.author_url;
  return comment;
}

export function editorComment(row: CommentRow, collection: string): Comment {
  const comment: Comment = { ...publicComment(row), collection, entryId: row.entry_id, status: row.status, body: row.body, updatedAt: row.updated_at };
  if (row.author_email !== null) comment.authorEmail = row.author_email;
  if (row.author_user_id !== null) comment.authorUserId = row.author_user_id;
  if (row.author_address !== null) comment.authorAddress = row.author_address;
  return comment;
}

export function commentSnapshot(row: CommentRow, collection: string): CommentSnapshot {
  return {
    id: row.id,
    collection,
    entryId: row.entry_id,
    parentId: row.parent_id,
    status: row.status,
    authorName: row.author_name,
    authorUserId: row.author_user_id,
    body: row.body,
    createdAt: row.created_at,
  };
}
