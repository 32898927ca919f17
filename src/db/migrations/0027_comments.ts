import { sql, type Kysely } from 'kysely';

/**
 * Comments on entries (issue 34, src/comments/, decisions/0058): visitors' comments, replies in threads,
 * and the moderation states an editor moves them through. A collection says whether its entries take
 * comments in `collections.comments` (JSON, null: comments off).
 *
 * Entries live in one table per collection, so a comment names its entry by id beside the collection
 * (no foreign key can span them). `thread_id` is the id of the thread's first comment (its own id for a
 * comment that replies to none), so one indexed read finds every reply of a page of threads.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema.alterTable('collections').addColumn('comments', 'text').execute();
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('collection_id', 'text', (column) => column.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (column) => column.notNull())
    // The comment this one answers; null for the first comment of a thread.
    .addColumn('parent_id', 'text', (column) => column.references('comments.id').onDelete('cascade'))
    .addColumn('thread_id', 'text', (column) => column.notNull())
    // `pending`, `approved`, `spam` or `trash`.
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('author_name', 'text', (column) => column.notNull())
    // Lower-cased; never shown publicly. Null for imported comments that had none.
    .addColumn('author_email', 'text')
    .addColumn('author_url', 'text')
    // A signed-in commenter, or the editor who replied as the site.
    .addColumn('author_user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    // The client address and user agent the comment came from, for moderation (never public).
    .addColumn('author_address', 'text')
    .addColumn('author_agent', 'text')
    // The Markdown subset as written, and its safe HTML, rendered once when written.
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('body_html', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  // The public read: an entry's approved threads by date, both ways; and counts per entry and status.
  await db.schema.createIndex('comments_entry_threads').on('comments').columns(['entry_id', 'status', 'created_at', 'id']).where(sql.ref('parent_id'), 'is', sql.lit(null)).execute();
  await db.schema.createIndex('comments_entry_status').on('comments').columns(['entry_id', 'status']).execute();
  // The approved replies of a page of threads, oldest first (with status in it, SQLite never prefers the queue's index).
  await db.schema.createIndex('comments_thread').on('comments').columns(['thread_id', 'status', 'created_at', 'id']).execute();
  await db.schema.createIndex('comments_parent').on('comments').column('parent_id').execute();
  // The moderation queue by status, newest first; and "first time" commenters (an approved comment by this email).
  await db.schema.createIndex('comments_status_created').on('comments').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('comments_author_email').on('comments').columns(['author_email', 'status']).execute();
  await db.schema.createIndex('comments_author_user').on('comments').column('author_user_id').execute();
}
