import { commentMarkdown } from '../convert/comment-text.ts';
import { commentParts, threadOrder } from '../sources/comments.ts';
import type { NormalizedComment } from '../sources/types.ts';
import type { WpcomApi } from './api.ts';

/** A comment as WordPress.com's API gives it with `context=edit`. */
export interface WpcomComment {
  ID: number;
  post?: { ID: number };
  author?: { login?: string; email?: string | false; name?: string; URL?: string };
  date?: string;
  /** What the commenter typed; `content` is it rendered (paragraphs added). */
  raw_content?: string;
  content?: string;
  parent?: false | { ID: number };
}

/** The API's comment statuses, asked one by one (a token may read some and not others), and what each is in Folio. */
const statuses = { approved: 'approved', unapproved: 'pending', spam: 'spam', trash: 'trash' } as const satisfies Record<string, NormalizedComment['status']>;
type WpcomCommentStatus = keyof typeof statuses;

/** Posts with comments: post ID → how many in each status. */
export type CommentedPosts = Map<string, Map<WpcomCommentStatus, number>>;

/**
 * Which posts have comments, and how many of each status: the site's comments listed by id only (a
 * small answer per hundred), so that only posts with comments are asked for theirs, and the analysis
 * counts them all, held ones too.
 */
export async function commentedPosts(api: WpcomApi, site: string): Promise<CommentedPosts> {
  const posts: CommentedPosts = new Map();
  for (const status of Object.keys(statuses) as WpcomCommentStatus[]) {
    for await (const page of api.pages<{ post?: { ID: number } }>(`sites/${site}/comments/`, 'comments', { status, type: 'any', fields: 'ID,post' })) {
      if ('forbidden' in page) break;
      for (const comment of page.items) {
        if (!comment.post) continue;
        const counts = posts.get(String(comment.post.ID)) ?? new Map<WpcomCommentStatus, number>();
        counts.set(status, (counts.get(status) ?? 0) + 1);
        posts.set(String(comment.post.ID), counts);
      }
    }
  }
  return posts;
}

/** How many comments a post has, every status together. */
export function commentTotal(counts: ReadonlyMap<WpcomCommentStatus, number> | undefined): number {
  let total = 0;
  for (const count of counts?.values() ?? []) total += count;
  return total;
}

/** A post's comments (`counts`: its statuses), threaded as the importer writes them; `warnings`: the item's. */
export async function postComments(api: WpcomApi, site: string, postId: string, counts: ReadonlyMap<WpcomCommentStatus, number> | undefined, warnings: string[]): Promise<NormalizedComment[]> {
  const comments: NormalizedComment[] = [];
  for (const status of counts?.keys() ?? []) {
    for await (const page of api.pages<WpcomComment>(`sites/${site}/posts/${postId}/replies/`, 'comments', { status, type: 'any', context: 'edit', order: 'ASC' })) {
      if ('forbidden' in page) break;
      comments.push(...page.items.map((comment) => normalizeComment(comment, statuses[status], warnings)));
    }
  }
  return threadOrder(comments);
}

function normalizeComment(comment: WpcomComment, status: NormalizedComment['status'], warnings: string[]): NormalizedComment {
  const time = comment.date ? Date.parse(comment.date) : Number.NaN;
  const { author } = comment;
  const sourceId = String(comment.ID);
  return {
    sourceId,
    ...(comment.parent ? { parent: String(comment.parent.ID) } : {}),
    status,
    ...(Number.isNaN(time) ? {} : { date: new Date(time).toISOString() }),
    ...commentParts(sourceId, { name: author?.name, email: author?.email, url: author?.URL, login: author?.login }, commentMarkdown(comment.raw_content ?? comment.content ?? ''), warnings),
  };
}
