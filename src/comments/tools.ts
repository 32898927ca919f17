import { defineTool } from '../mcp/tool.ts';
import { listComments, moderateComments, replyToComment, updateComment } from './moderation.ts';
import { CommentParams, ModerateBody, ModerationQuery, ReplyBody, UpdateCommentBody } from './schemas.ts';

/** Comment moderation over MCP, on the operations REST uses (Editors and up, as there). */
export const commentTools = [
  defineTool({
    name: 'comment_list',
    title: 'List comments',
    description:
      'The moderation queue, newest first: each comment with its entry (collection, entryId), status (pending, approved, spam, trash), author name, email and URL, body and parentId for replies. Filter by status, collection, entryId, or q (text in the body, name or email).',
    operation: listComments,
    input: ModerationQuery,
    flag: 'read-only',
  }),
  defineTool({
    name: 'comment_moderate',
    title: 'Moderate comments',
    description: 'Moves up to 100 comments to approved, pending, spam or trash (action approve, pending, spam, trash), or deletes them with their replies (delete). Returns how many changed.',
    operation: moderateComments,
    input: ModerateBody,
    flag: 'destructive',
  }),
  defineTool({
    name: 'comment_update',
    title: 'Edit a comment',
    description: "Changes a comment's body (Markdown subset), author name or author URL.",
    operation: updateComment,
    input: CommentParams.extend(UpdateCommentBody.shape).strict(),
  }),
  defineTool({
    name: 'comment_reply',
    title: 'Reply to a comment as the site',
    description: "Answers a comment in the signed-in editor's name; the reply is approved at once.",
    operation: replyToComment,
    input: CommentParams.extend(ReplyBody.shape).strict(),
  }),
];
