/**
 * Checked by the compiler (`npm run typecheck`, and test/typed-adapters.test.ts): a route's parts and a
 * tool's arguments must make exactly the operation's input. Each `@ts-expect-error` marks a mismatch
 * the compiler must refuse; were it to compile, the directive itself would be the error.
 */
import { z } from 'zod';
import { getEntry } from '../../src/content/operations.ts';
import { CollectionParams, EntryItemResponse, EntryParams, GetEntryQuery } from '../../src/content/schemas.ts';
import { defineRoute } from '../../src/http/route.ts';
import { defineTool } from '../../src/mcp/tool.ts';

export const matchingRoute = defineRoute({
  method: 'get',
  path: '/content/:collection/:id',
  tag: 'Content',
  summary: 'Get an entry',
  operation: getEntry,
  params: EntryParams,
  query: GetEntryQuery,
  response: EntryItemResponse,
});

// @ts-expect-error CollectionParams has no `id`, which getEntry's input needs.
export const routeWithCollectionParams = defineRoute({
  method: 'get',
  path: '/content/:collection/:id',
  tag: 'Content',
  summary: 'Get an entry',
  operation: getEntry,
  params: CollectionParams,
  response: EntryItemResponse,
});

export const routeWithWrongMapping = defineRoute({
  method: 'get',
  path: '/content/:collection/:id',
  tag: 'Content',
  summary: 'Get an entry',
  operation: getEntry,
  params: EntryParams,
  // @ts-expect-error the mapping makes something other than getEntry's input.
  input: ({ params }) => ({ collection: params.collection, ref: params.id }),
  response: EntryItemResponse,
});

export const matchingTool = defineTool({
  name: 'content_get',
  title: 'Get content',
  description: 'Returns an entry',
  operation: getEntry,
  input: z.strictObject({ ...EntryParams.shape, ...GetEntryQuery.shape }),
});

// @ts-expect-error the arguments lack `id`, which getEntry's input needs.
export const toolWithCollectionArguments = defineTool({
  name: 'content_get',
  title: 'Get content',
  description: 'Returns an entry',
  operation: getEntry,
  input: z.strictObject({ ...CollectionParams.shape }),
});
