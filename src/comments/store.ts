import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { containsInsensitive, limitLiteral, lockRows } from '../db/dialect.ts';
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

export interface CommentAuthor {
  name: string;
  email?: string | null;
  url?: string | null;
  userId?: string | null;
  address?: string | null;
  agent?: string | null;
}

/**
 * A new comment's row, the one way every writer (the public's post, an editor's reply, the importer)
 * builds one: its thread from its parent, the author's parts absent as null, the email lower-cased.
 */
export function newCommentRow(comment: {
  id: string;
  collectionId: string;
  entryId: string;
  parent?: Pick<CommentRow, 'id' | 'thread_id'>;
  status: CommentStatus;
  author: CommentAuthor;
  body: string;
  bodyHtml: string;
  createdAt: string;
}): CommentRow {
  const { id, parent, author } = comment;
  return {
    id,
    collection_id: comment.collectionId,
    entry_id: comment.entryId,
    parent_id: parent?.id ?? null,
    thread_id: threadIdFor(id, parent),
    status: comment.status,
    author_name: author.name,
    author_email: author.email?.toLowerCase() ?? null,
    author_url: author.url ?? null,
    author_user_id: author.userId ?? null,
    author_address: author.address ?? null,
    author_agent: author.agent ?? null,
    body: comment.body,
    body_html: comment.bodyHtml,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
  };
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

/** Comments by id, locked until the transaction ends (moderation changes them). */
export async function lockComments(db: Db, ids: readonly string[]): Promise<CommentRow[]> {
  return (await lockRows(db, db.kysely.selectFrom('comments').selectAll().where('id', 'in', [...ids])).execute()) as CommentRow[];
}

/** What posting needs of the entry: whether it is live, and since when. */
export async function entryState(db: Db, table: string, id: string): Promise<{ status: string; publishedAt: string | null; deleted: boolean } | undefined> {
  const entries = db.kysely as unknown as Kysely<Record<string, { _id: string; _status: string; _published_at: string | null; _deleted_at: string | null }>>;
  const row = await entries.selectFrom(table).select(['_status', '_published_at', '_deleted_at']).where('_id', '=', id).executeTakeFirst();
  return row && { status: row._status, publishedAt: row._published_at, deleted: row._deleted_at !== null };
}

/** Whether this commenter (by email, or by account when signed in) has an approved comment: "first time" moderation. */
export async function hasApprovedComment(db: Db, author: { email: string | null; userId: string | null }): Promise<boolean> {
  const { email, userId } = author;
  let query = db.kysely.selectFrom('comments').select('id').where('status', '=', 'approved');
  query = query.where(({ or, eb }) => or([...(email !== null ? [eb('author_email', '=', email)] : []), ...(userId !== null ? [eb('author_user_id', '=', userId)] : [])]));
  return (await query.limit(limitLiteral(1)).executeTakeFirst()) !== undefined;
}

export type CommentKey = readonly [createdAt: string, id: string];

/** What the public read needs of a comment: never the email, the address, nor the source of the body. */
const publicColumns = ['id', 'parent_id', 'thread_id', 'author_name', 'author_url', 'author_user_id', 'body_html', 'created_at'] as const;
export type PublicCommentRow = Pick<CommentRow, (typeof publicColumns)[number]>;

/** A page of an entry's approved threads (their first comments), by date either way, after `after`; `limit + 1` rows. */
export async function approvedThreads(db: Db, entryId: string, order: 'newest' | 'oldest', after: CommentKey | undefined, limit: number): Promise<PublicCommentRow[]> {
  const direction = order === 'newest' ? 'desc' : 'asc';
  let query = db.kysely.selectFrom('comments').select(publicColumns).where('entry_id', '=', entryId).where('status', '=', 'approved').where('parent_id', 'is', null);
  if (after) {
    const [createdAt, id] = after;
    const past = order === 'newest' ? '<' : '>';
    query = query.where(({ eb, or, and }) => or([eb('created_at', past, createdAt), and([eb('created_at', '=', createdAt), eb('id', past, id)])]));
  }
  return query.orderBy('created_at', direction).orderBy('id', direction).limit(limitLiteral(limit + 1)).execute();
}

/** The approved replies of these threads, oldest first. */
export async function approvedReplies(db: Db, threadIds: readonly string[]): Promise<PublicCommentRow[]> {
  if (threadIds.length === 0) return [];
  return db.kysely
    .selectFrom('comments')
    .select(publicColumns)
    .where('thread_id', 'in', [...threadIds])
    .where('parent_id', 'is not', null)
    .where('status', '=', 'approved')
    .orderBy('thread_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Approved comments per entry, for the entries that have any. */
export async function approvedCounts(db: Db, collectionId: string, entryIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.kysely
    .selectFrom('comments')
    .select(['entry_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('entry_id', 'in', [...entryIds])
    .where('status', '=', 'approved')
    .where('collection_id', '=', collectionId)
    .groupBy('entry_id')
    .execute();
  return new Map(rows.map((row) => [row.entry_id, Number(row.count)]));
}

export interface ModerationFilter {
  status?: CommentStatus;
  collectionId?: string;
  entryId?: string;
  /** Case-insensitive text in the body, the name or the email. */
  search?: string;
  after?: CommentKey;
  limit: number;
}

/** The moderation queue, newest first; `limit + 1` rows. */
export async function listComments(db: Db, filter: ModerationFilter): Promise<CommentRow[]> {
  let query = db.kysely.selectFrom('comments').selectAll();
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.collectionId !== undefined) query = query.where('collection_id', '=', filter.collectionId);
  if (filter.entryId !== undefined) query = query.where('entry_id', '=', filter.entryId);
  const search = filter.search;
  if (search !== undefined) query = query.where(({ or }) => or([containsInsensitive('body', search), containsInsensitive('author_name', search), containsInsensitive('author_email', search)]));
  if (filter.after) {
    const [createdAt, id] = filter.after;
    query = query.where(({ eb, or, and }) => or([eb('created_at', '<', createdAt), and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  return (await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitLiteral(filter.limit + 1)).execute()) as CommentRow[];
}

export async function setStatus(db: Db, ids: readonly string[], status: CommentStatus, now: string): Promise<void> {
  if (ids.length > 0) await db.kysely.updateTable('comments').set({ status, updated_at: now }).where('id', 'in', [...ids]).execute();
}

export async function updateComment(db: Db, id: string, changes: Partial<Pick<CommentRow, 'body' | 'body_html' | 'author_name' | 'author_url' | 'updated_at'>>): Promise<void> {
  await db.kysely.updateTable('comments').set(changes).where('id', 'in', [id]).execute();
}

/** Deletes comments; their replies go with them (the parent's foreign key cascades). */
export async function deleteComments(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.kysely.deleteFrom('comments').where('id', 'in', [...ids]).execute();
}

/** Collection ids by slug, for the entries a page of comments names. */
export async function collectionSlugs(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('collections').select(['id', 'slug']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.slug]));
}

export async function deleteEntryComments(db: Db, entryId: string): Promise<void> {
  await db.kysely.deleteFrom('comments').where('entry_id', '=', entryId).execute();
}
