import { DeletedResponse } from '../core/schemas.ts';
import { textResponse } from '../http/envelope.ts';
import { requestHeader } from '../http/request-context.ts';
import { defineRoute } from '../http/route.ts';
import {
  createCollection,
  createField,
  deleteCollection,
  deleteField,
  exportSchema,
  getCollection,
  listCollections,
  listFields,
  reorderFields,
  updateCollection,
  updateField,
} from './operations.ts';
import {
  CollectionItemResponse,
  CollectionListResponse,
  CollectionParams,
  CreateCollectionBody,
  CreateFieldBody,
  DeleteCollectionQuery,
  FieldItemResponse,
  FieldListResponse,
  FieldParams,
  GetCollectionQuery,
  ReorderFieldsBody,
  SchemaExportQuery,
  SchemaExportResponse,
  UpdateCollectionBody,
  UpdateFieldBody,
} from './schemas.ts';
import { schemaToTypeScript } from './typescript.ts';

const tag = 'Schema';
const collectionPath = '/schema/collections/:slug';

export const schemaRoutes = [
  defineRoute({ method: 'get', path: '/schema/collections', tag, summary: 'List collections', operation: listCollections, response: CollectionListResponse }),
  defineRoute({
    method: 'get',
    path: collectionPath,
    tag,
    summary: 'Get a collection, with its fields when includeFields=true',
    operation: getCollection,
    params: CollectionParams,
    query: GetCollectionQuery,
    response: CollectionItemResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/schema/collections',
    tag,
    summary: 'Create a collection',
    operation: createCollection,
    body: CreateCollectionBody,
    response: CollectionItemResponse,
    status: 201,
  }),
  defineRoute({
    method: 'patch',
    path: collectionPath,
    tag,
    summary: 'Change a collection',
    operation: updateCollection,
    params: CollectionParams,
    body: UpdateCollectionBody,
    response: CollectionItemResponse,
  }),
  defineRoute({
    method: 'delete',
    path: collectionPath,
    tag,
    summary: 'Delete a collection (force=true deletes its content too)',
    operation: deleteCollection,
    params: CollectionParams,
    query: DeleteCollectionQuery,
    response: DeletedResponse,
  }),
  defineRoute({ method: 'get', path: `${collectionPath}/fields`, tag, summary: "A collection's fields in order", operation: listFields, params: CollectionParams, response: FieldListResponse }),
  defineRoute({
    method: 'post',
    path: `${collectionPath}/fields`,
    tag,
    summary: 'Add a field',
    operation: createField,
    params: CollectionParams,
    body: CreateFieldBody,
    input: ({ params, body }) => ({ ...body, collection: params.slug }),
    response: FieldItemResponse,
    status: 201,
  }),
  defineRoute({
    method: 'post',
    path: `${collectionPath}/fields/reorder`,
    tag,
    summary: 'Put the fields in a new order',
    operation: reorderFields,
    params: CollectionParams,
    body: ReorderFieldsBody,
    response: FieldListResponse,
  }),
  defineRoute({
    method: 'patch',
    path: '/schema/collections/:collectionSlug/fields/:fieldSlug',
    tag,
    summary: 'Change a field',
    operation: updateField,
    params: FieldParams,
    body: UpdateFieldBody,
    response: FieldItemResponse,
  }),
  defineRoute({
    method: 'delete',
    path: '/schema/collections/:collectionSlug/fields/:fieldSlug',
    tag,
    summary: 'Delete a field and all data in it',
    operation: deleteField,
    params: FieldParams,
    response: DeletedResponse,
  }),
  defineRoute({
    method: 'get',
    path: '/schema',
    tag,
    summary: 'The whole schema as JSON, or as TypeScript with format=typescript or Accept: text/typescript',
    operation: exportSchema,
    query: SchemaExportQuery,
    response: SchemaExportResponse,
    renderTypes: ['text/typescript'],
    render: (c, data, { query }) => {
      const wantsTypeScript = query.format === 'typescript' || (query.format === undefined && (requestHeader(c, 'accept') ?? '').includes('text/typescript'));
      return wantsTypeScript ? textResponse(c, schemaToTypeScript(data.collections), 'text/typescript; charset=utf-8') : undefined;
    },
  }),
];
