import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.ts';
import { DocsAssetParams, docsAssetOperation, docsPage, getDocsPage, openApiDocumentOperation } from './docs.ts';

const tag = 'System';

/** The reference's routes; the document is read when asked for, after the app built it from every route. */
export function docsRoutes(basePath: string, getDocument: () => Record<string, unknown>): Route[] {
  const page = docsPage(basePath);
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tag,
      summary: 'This OpenAPI 3.1 document',
      operation: openApiDocumentOperation(getDocument),
      result: { kind: 'json', schema: z.object({ openapi: z.string() }).loose() },
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      tag,
      summary: 'The interactive API reference (Swagger UI)',
      operation: getDocsPage,
      result: { kind: 'html', render: () => page },
    }),
    defineRoute({
      method: 'get',
      path: '/docs/:asset',
      tag,
      summary: 'Scripts and styles of the API reference',
      operation: docsAssetOperation(basePath),
      params: DocsAssetParams,
      result: { kind: 'bytes', source: (asset) => asset, cacheControl: 'public, max-age=86400' },
    }),
  ];
}
