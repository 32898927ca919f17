import type { NormalizedComment } from './types.ts';

/**
 * An item's comments in the order the importer writes them: parents before their replies, the source's
 * order kept otherwise (an export lists them by id, which a reply need not follow). A reply to a comment
 * the item does not hold, or a cycle of parents (a broken source), starts a thread of its own.
 */
export function threadOrder(comments: NormalizedComment[]): NormalizedComment[] {
  const byId = new Map(comments.map((comment) => [comment.sourceId, comment]));
  const ordered: NormalizedComment[] = [];
  const placed = new Set<string>();
  const place = (comment: NormalizedComment, visiting: Set<string>): void => {
    if (placed.has(comment.sourceId)) return;
    visiting.add(comment.sourceId);
    const parent = comment.parent !== undefined ? byId.get(comment.parent) : undefined;
    if (!parent || visiting.has(parent.sourceId)) delete comment.parent;
    else place(parent, visiting);
    placed.add(comment.sourceId);
    ordered.push(comment);
  };
  for (const comment of comments) place(comment, new Set());
  return ordered;
}
