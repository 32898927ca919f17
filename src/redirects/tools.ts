import { z } from 'zod';
import { defineTool, limitArgument } from '../mcp/tool.ts';
import { createRedirect, deleteRedirect, getRedirect, listRedirects, updateRedirect } from './operations.ts';
import { CreateRedirectBody, ListRedirectsQuery, UpdateRedirectBody } from './schemas.ts';

const id = z.string().min(1).max(200).describe('Redirect id');

/** The redirects over MCP, over the same operations and input schemas as REST. */
export const redirectTools = [
  defineTool({
    name: 'redirect_list',
    title: 'List redirects',
    description: 'Lists redirects by from: id, from, to, status, source, the entry it leads to, targetMissing, hits and lastHitAt. Filters: search (in from or to), source, targetMissing.',
    operation: listRedirects,
    input: z.strictObject({
      search: ListRedirectsQuery.shape.search,
      source: ListRedirectsQuery.shape.source,
      targetMissing: z.boolean().optional().describe('true: only redirects whose entry went to the trash or was deleted'),
      cursor: ListRedirectsQuery.shape.cursor,
      limit: limitArgument(100, 50),
    }),
    flag: 'read-only',
  }),
  defineTool({ name: 'redirect_get', title: 'Get a redirect', description: 'Returns one redirect by id.', operation: getRedirect, input: z.strictObject({ id }), flag: 'read-only' }),
  defineTool({
    name: 'redirect_create',
    title: 'Create a redirect',
    description: 'Makes an old path of the site lead to a path or an absolute http(s) URL, 301 (default) or 302. A from that has a redirect already is a conflict; one that would loop is refused.',
    operation: createRedirect,
    input: CreateRedirectBody,
  }),
  defineTool({
    name: 'redirect_update',
    title: 'Change a redirect',
    description: 'Changes any of from, to and status of a redirect by id.',
    operation: updateRedirect,
    input: z.strictObject({ id, ...UpdateRedirectBody.shape }),
    toInput: ({ id: redirectId, ...body }) => ({ id: redirectId, body }),
  }),
  defineTool({ name: 'redirect_delete', title: 'Delete a redirect', description: 'Deletes a redirect by id.', operation: deleteRedirect, input: z.strictObject({ id }), flag: 'destructive' }),
];
