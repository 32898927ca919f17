import { commentMarkdown } from '../convert/comment-text.ts';
import { commentParts, threadOrder } from '../sources/comments.ts';
import type { NormalizedComment } from '../sources/types.ts';
import { gmtDate } from './normalize.ts';
import type { WxrComment } from './records.ts';

/** WordPress's `comment_approved` → the moderation state Folio keeps; anything else (a plugin's own) waits for an editor. */
const statuses: Readonly<Record<string, NormalizedComment['status']>> = { '1': 'approved', '0': 'pending', spam: 'spam', trash: 'trash', 'post-trashed': 'trash' };

/**
 * An item's comments as the importer writes them (sources/comments.ts orders the threads), pingbacks and
 * trackbacks kept as the comments WordPress shows them as. `loginsById`: the export's authors, for a
 * comment written by a signed-in user; `warnings`: the item's.
 */
export function normalizeComments(comments: readonly WxrComment[], loginsById: ReadonlyMap<string, string>, warnings: string[]): NormalizedComment[] {
  return threadOrder(comments.filter((comment) => comment.id !== '').map((comment) => normalizeComment(comment, loginsById, warnings)));
}

function normalizeComment(comment: WxrComment, loginsById: ReadonlyMap<string, string>, warnings: string[]): NormalizedComment {
  const date = gmtDate(comment.dateGmt) ?? gmtDate(comment.date);
  const login = comment.userId !== '' && comment.userId !== '0' ? loginsById.get(comment.userId) : undefined;
  return {
    sourceId: comment.id,
    ...(comment.parent !== '' && comment.parent !== '0' ? { parent: comment.parent } : {}),
    status: statuses[comment.approved] ?? 'pending',
    ...(date !== undefined ? { date } : {}),
    ...commentParts(comment.id, { name: comment.author, email: comment.authorEmail, url: comment.authorUrl, login }, commentMarkdown(comment.content), warnings),
  };
}
