import { MarkdownLimitError } from '../../content/markdown-limits.ts';
import { escapeHtml, renderCommentBody } from '../../comments/render.ts';
import { isAuthorUrl } from '../../comments/schemas.ts';
import type { NormalizedComment } from './types.ts';

/** Who wrote a source's comment, as the source gives it (absent or empty parts are not known). */
export interface SourceCommenter {
  name?: string;
  email?: string | false;
  url?: string;
  login?: string;
}

/**
 * An imported comment's author and body as every source gives them to the importer: a nameless one is
 * "Anonymous"; the site's URL is kept only where a posted comment's would be (http(s), at most 500
 * characters, well formed); the body's Markdown (comment-text.ts) is rendered here, once, as a posted
 * comment's is. Markdown the renderer refuses (nested past its limits: a broken or hostile source)
 * shows as the text it is, escaped, and `warnings` (the item's) says so.
 */
export function commentParts(sourceId: string, author: SourceCommenter, body: string, warnings: string[]): Pick<NormalizedComment, 'authorName' | 'authorEmail' | 'authorUrl' | 'authorLogin' | 'body' | 'bodyHtml'> {
  return {
    authorName: author.name?.trim() || 'Anonymous',
    ...(author.email ? { authorEmail: author.email } : {}),
    ...(author.url && isAuthorUrl(author.url) ? { authorUrl: author.url } : {}),
    ...(author.login ? { authorLogin: author.login } : {}),
    body,
    bodyHtml: renderedBody(sourceId, body, warnings),
  };
}

function renderedBody(sourceId: string, body: string, warnings: string[]): string {
  try {
    return renderCommentBody(body);
  } catch (error) {
    if (!(error instanceof MarkdownLimitError)) throw error;
    warnings.push(`comment ${sourceId}: ${error.message}; kept as plain text`);
    return `<p>${escapeHtml(body)}</p>`;
  }
}

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
