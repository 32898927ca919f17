import { z } from 'zod';
import { defineRoute } from '../http/route.ts';
import { getComment, listComments, moderateComments, replyToComment, updateComment } from './moderation.ts';
import { postComment } from './post.ts';
import { countComments, listEntryComments } from './read.ts';
import {
  CommentCountsQuery,
  CommentCountsResponse,
  CommentItemResponse,
  CommentListResponse,
  CommentParams,
  CommentThreadsResponse,
  EntryCommentsParams,
  EntryCommentsQuery,
  ModerateBody,
  ModerateResponse,
  ModerationQuery,
  PostCommentBody,
  PostedCommentResponse,
  ReplyBody,
  UpdateCommentBody,
} from './schemas.ts';

const tag = 'Comments';
const entryComments = '/content/:collection/:id/comments';

/** A comment's body is at most a few thousand characters: a request far larger is not a comment. */
const postLimit = 32 * 1024;

/** The user agent is kept for moderation, cut to a length worth keeping. */
const UserAgentHeader = z.object({ 'user-agent': z.string().optional().transform((value) => value?.slice(0, 500)) });

export const commentRoutes = [
  defineRoute({
    method: 'post',
    path: entryComments,
    tag,
    summary: 'Post a comment on a published entry (public; rate limited; held for moderation as the collection says)',
    operation: postComment,
    params: EntryCommentsParams,
    headers: UserAgentHeader,
    body: { json: PostCommentBody, limit: postLimit },
    input: ({ params, body, headers }) => ({ ...params, ...body, userAgent: headers['user-agent'] }),
    status: 201,
    response: PostedCommentResponse,
  }),
  defineRoute({
    method: 'get',
    path: entryComments,
    tag,
    summary: "An entry's approved comments: threads a page at a time, each with its replies",
    operation: listEntryComments,
    params: EntryCommentsParams,
    query: EntryCommentsQuery,
    response: CommentThreadsResponse,
  }),
  defineRoute({ method: 'get', path: '/comments/counts', tag, summary: 'Approved comments per entry', operation: countComments, query: CommentCountsQuery, response: CommentCountsResponse }),
  defineRoute({ method: 'get', path: '/comments', tag, summary: 'The moderation queue, newest first (status, collection, entry and text filters)', operation: listComments, query: ModerationQuery, response: CommentListResponse }),
  defineRoute({ method: 'post', path: '/comments/moderate', tag, summary: 'Approve, hold, mark as spam, trash or delete comments together', operation: moderateComments, body: ModerateBody, response: ModerateResponse }),
  defineRoute({ method: 'get', path: '/comments/:id', tag, summary: 'Get a comment as editors see it', operation: getComment, params: CommentParams, response: CommentItemResponse }),
  defineRoute({
    method: 'patch',
    path: '/comments/:id',
    tag,
    summary: "Edit a comment's body, name or URL",
    operation: updateComment,
    params: CommentParams,
    body: UpdateCommentBody,
    input: ({ params, body }) => ({ ...params, ...body }),
    response: CommentItemResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/comments/:id/replies',
    tag,
    summary: 'Reply as the site: approved at once, in the editor\'s name',
    operation: replyToComment,
    params: CommentParams,
    body: ReplyBody,
    input: ({ params, body }) => ({ ...params, ...body }),
    status: 201,
    response: CommentItemResponse,
  }),
];
