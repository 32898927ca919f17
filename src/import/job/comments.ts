import { insertComments, newCommentRow, type CommentRow } from '../../comments/store.ts';
import { isoNow } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Transaction } from '../../db/dialect.ts';
import type { LoadedCollection } from '../../schema/store.ts';
import type { NormalizedComment } from '../sources/types.ts';
import type { ImportRun } from './run-state.ts';

/** Rows per insert: 16 columns each stays far below either database's limit of bound values. */
const rowsPerInsert = 500;

/**
 * The item's comments as comments of the entry it became, in the batch's transaction (so a resumed
 * import writes them with their entry or not at all, and a re-import, which leaves the entry as it is,
 * adds none). Threads as in the source; a comment a mapped author wrote carries that person. The body
 * comes rendered (sources/comments.ts), so the transaction only writes.
 */
export async function writeComments(run: ImportRun, tx: Transaction, collection: LoadedCollection, entryId: string, comments: readonly NormalizedComment[]): Promise<void> {
  if (comments.length === 0) return;
  const importedAt = isoNow(run.ctx.clock);
  const written = new Map<string, CommentRow>();
  const rows = comments.map((comment) => {
    const row = newCommentRow({
      id: newId(),
      collectionId: collection.id,
      entryId,
      ...(comment.parent !== undefined && written.has(comment.parent) ? { parent: written.get(comment.parent)! } : {}),
      status: comment.status,
      author: {
        name: comment.authorName,
        email: comment.authorEmail,
        url: comment.authorUrl,
        userId: comment.authorLogin !== undefined ? run.authorMapping[comment.authorLogin] : undefined,
      },
      body: comment.body,
      bodyHtml: comment.bodyHtml,
      createdAt: comment.date ?? importedAt,
    });
    written.set(comment.sourceId, row);
    return row;
  });
  for (let start = 0; start < rows.length; start += rowsPerInsert) await insertComments(tx, rows.slice(start, start + rowsPerInsert));
}
