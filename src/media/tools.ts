import { z } from 'zod';
import { defineTool, limitArgument } from '../mcp/tool.ts';
import { deleteMedia, getMedia, listMedia, updateMedia } from './operations.ts';
import { ListMediaQuery, MediaParams, UpdateMediaBody } from './schemas.ts';

const mediaArgs = z.strictObject(MediaParams.shape);

/** The four media tools of mcp.md, over the same operations as REST. Files enter by REST uploads only. */
export const mediaTools = [
  defineTool({
    name: 'media_list',
    title: 'List media',
    description: 'Lists media items newest first, optionally only those whose MIME type starts with mimeType (e.g. image/); pass nextCursor back as cursor.',
    operation: listMedia,
    input: z.strictObject({ ...ListMediaQuery.shape, limit: limitArgument(100, 50) }),
    flag: 'read-only',
  }),
  defineTool({
    name: 'media_get',
    title: 'Get media',
    description: 'Returns a media item: filename, MIME type, size, dimensions, alternative text, caption and its absolute URL.',
    operation: getMedia,
    input: mediaArgs,
    flag: 'read-only',
  }),
  defineTool({
    name: 'media_update',
    title: 'Update media',
    description: 'Changes the alternative text, caption or recorded width and height (pixels) of a media item; the file itself cannot be changed.',
    operation: updateMedia,
    input: z.strictObject({ ...MediaParams.shape, ...UpdateMediaBody.shape }),
  }),
  defineTool({
    name: 'media_delete',
    title: 'Delete media',
    description: 'Deletes a media item and its stored file. Content that references it keeps the now broken reference.',
    operation: deleteMedia,
    input: mediaArgs,
    flag: 'destructive',
  }),
];
