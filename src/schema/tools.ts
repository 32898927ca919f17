import { z } from 'zod';
import { defineTool } from '../mcp/tool.ts';
import { createCollection, createField, deleteCollection, deleteField, getCollection, listCollections } from './operations.ts';
import { CreateCollectionBody, CreateFieldBody, SlugParam } from './schemas.ts';
import { fieldTypes } from './types.ts';

const collectionSlug = SlugParam.describe('Collection slug');

/** The six schema tools of mcp.md; scope and minimum role come from the operations. */
export const schemaTools = [
  defineTool({
    name: 'schema_list_collections',
    title: 'List collections',
    description: 'Lists every collection: slug, labels, supported features and timestamps.',
    operation: listCollections,
    input: z.strictObject({}),
    flag: 'read-only',
  }),
  defineTool({
    name: 'schema_get_collection',
    title: 'Get collection',
    description: 'Returns a collection with all its field definitions.',
    operation: getCollection,
    input: z.strictObject({ slug: collectionSlug }),
    toInput: ({ slug }) => ({ slug, includeFields: true }),
    flag: 'read-only',
  }),
  defineTool({
    name: 'schema_create_collection',
    title: 'Create collection',
    description: 'Creates a collection (a content type). `label` is the plural display name.',
    operation: createCollection,
    input: CreateCollectionBody,
  }),
  defineTool({
    name: 'schema_delete_collection',
    title: 'Delete collection',
    description: 'Deletes a collection and all its content. Refused while it has content unless `force` is true.',
    operation: deleteCollection,
    input: z.strictObject({ slug: collectionSlug, force: z.boolean().optional().describe('Delete even if the collection has content') }),
    flag: 'destructive',
  }),
  defineTool({
    name: 'schema_create_field',
    title: 'Create field',
    description: `Adds a field to a collection. Types: ${fieldTypes.join(', ')}. For select and multiSelect the allowed values go in validation.options; a reference needs options.collection.`,
    operation: createField,
    input: z.strictObject({ collection: collectionSlug, ...CreateFieldBody.shape }),
  }),
  defineTool({
    name: 'schema_delete_field',
    title: 'Delete field',
    description: 'Removes a field from a collection, with all the data stored in it.',
    operation: deleteField,
    input: z.strictObject({ collection: collectionSlug, fieldSlug: SlugParam.describe('Field slug') }),
    toInput: ({ collection, fieldSlug }) => ({ collectionSlug: collection, fieldSlug }),
    flag: 'destructive',
  }),
];
