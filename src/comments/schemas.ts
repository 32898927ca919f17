import { z } from 'zod';
import { pageQuery } from '../core/pagination.ts';
import { commentStatuses } from './store.ts';

/** Inputs and outputs of comments (decisions/0058), shared by REST, MCP and the OpenAPI document. */

/** The most characters a comment's body may have: a long comment, far from an article. */
export const maxCommentLength = 5000;

const CollectionSlug = z.string().min(1).max(200).describe('Collection slug');
const CommentId = z.string().min(1).max(64);
const EntryId = z.string().min(1).max(64).describe('Entry id');
const Body = z.string().trim().min(1, 'Must not be empty').max(maxCommentLength, `At most ${maxCommentLength} characters`).describe('Plain text or the Markdown subset: paragraphs, line breaks, emphasis, strong, code, quotes, lists, http(s) and mailto links');
const AuthorName = z.string().trim().min(1, 'Must not be empty').max(100).describe('Shown as plain text');

/** Only absolute http(s) addresses: a `javascript:` or `data:` address never becomes a link. */
const AuthorUrl = z
  .url({ protocol: /^https?$/, error: 'Must be an http(s) URL' })
  .max(500)
  .describe("The commenter's site, http(s) only");

/** Whether `url` may stand as a commenter's site: what a posted comment's `url` passes (the importer drops any other). */
export function isAuthorUrl(url: string): boolean {
  return AuthorUrl.safeParse(url).success;
}

export const EntryCommentsParams = z.object({ collection: CollectionSlug, id: EntryId });
export const CommentParams = z.object({ id: CommentId });

export const PostCommentBody = z.strictObject({
  name: AuthorName.optional().describe('Required unless signed in (then the account\'s name)'),
  email: z.email('Must be an email address').max(254).optional().describe('Required unless signed in; never shown publicly'),
  url: AuthorUrl.optional(),
  body: Body,
  parentId: CommentId.optional().describe('The comment of the same entry this one answers'),
  honeypot: z.string().max(1000).optional().describe('Leave empty: a form hides it from people, so only a bot fills it in; such a post is answered as accepted and stored nowhere'),
});

export const EntryCommentsQuery = z.object({
  order: z.enum(['newest', 'oldest']).default('newest').describe('Threads by the date of their first comment; replies are always oldest first'),
  ...pageQuery(50),
});

export const CommentCountsQuery = z.object({
  collection: CollectionSlug,
  ids: z
    .string()
    .min(1)
    .max(6600)
    .transform((value) => [...new Set(value.split(',').map((id) => id.trim()).filter(Boolean))])
    .pipe(z.array(EntryId).min(1).max(100))
    .describe('Comma-separated entry ids, at most 100'),
});

export const ModerationQuery = z.object({
  status: z.enum(commentStatuses).optional().describe('Only comments in this state'),
  collection: CollectionSlug.optional(),
  entryId: EntryId.optional(),
  q: z.string().trim().min(1).max(200).optional().describe('Text in the body, the name or the email'),
  ...pageQuery(50),
});

export const moderationActions = ['approve', 'pending', 'spam', 'trash', 'delete'] as const;

export const ModerateBody = z.strictObject({
  ids: z.array(CommentId).min(1).max(100).refine((ids) => new Set(ids).size === ids.length, 'Must not repeat an id'),
  action: z.enum(moderationActions).describe('approve, pending, spam, trash move the comments to that state; delete removes them and their replies'),
});

export const UpdateCommentBody = z.strictObject({
  body: Body.optional(),
  authorName: AuthorName.optional(),
  authorUrl: AuthorUrl.nullable().optional(),
});

export const ReplyBody = z.strictObject({ body: Body });

/** A comment as the public sees it: no email, no address, no moderation state. */
export const PublicCommentSchema = z
  .object({
    id: z.string(),
    parentId: z.string().optional(),
    authorName: z.string(),
    authorUrl: z.string().optional(),
    byUser: z.boolean().describe('Written by a signed-in user of the site'),
    bodyHtml: z.string().describe('The body rendered to safe HTML'),
    createdAt: z.string(),
  })
  .meta({ id: 'PublicComment' });

export const CommentThreadSchema = PublicCommentSchema.extend({
  replies: z.array(PublicCommentSchema).describe('Approved replies in the thread, oldest first; parentId says which comment each answers'),
}).meta({ id: 'CommentThread' });

/** A comment as editors see it. */
export const CommentSchema = PublicCommentSchema.extend({
  collection: z.string(),
  entryId: z.string(),
  status: z.enum(commentStatuses),
  authorEmail: z.string().optional(),
  authorUserId: z.string().optional(),
  authorAddress: z.string().optional(),
  body: z.string(),
  updatedAt: z.string(),
}).meta({ id: 'Comment' });

export type PublicComment = z.infer<typeof PublicCommentSchema>;
export type CommentThread = z.infer<typeof CommentThreadSchema>;
export type Comment = z.infer<typeof CommentSchema>;

export const PostedCommentResponse = z.object({ item: PublicCommentSchema.extend({ status: z.enum(['pending', 'approved']).describe('pending: held for moderation') }) });
export const CommentThreadsResponse = z.object({ items: z.array(CommentThreadSchema), nextCursor: z.string().optional() });
export const CommentCountsResponse = z.object({ counts: z.record(z.string(), z.number().int()).describe('Approved comments per entry id') });
export const CommentItemResponse = z.object({ item: CommentSchema });
export const CommentListResponse = z.object({ items: z.array(CommentSchema), nextCursor: z.string().optional() });
export const ModerateResponse = z.object({ changed: z.number().int().describe('Comments moved or deleted') });

