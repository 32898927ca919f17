import { EntryItemResponse } from '../content/schemas.ts';
import { defineRoute } from '../http/route.ts';
import { createPreviewUrl, readPreview } from './operations.ts';
import { PreviewReadQuery, PreviewUrlBody, PreviewUrlParams, PreviewUrlResponse } from './schemas.ts';

const tag = 'Content';

export const previewRoutes = [
  defineRoute({
    method: 'post',
    path: '/content/:collection/:id/preview-url',
    tag,
    summary: "A signed link to the entry's page on the site that lets the site read its draft until it expires (the collection supports preview)",
    operation: createPreviewUrl,
    params: PreviewUrlParams,
    body: PreviewUrlBody,
    response: PreviewUrlResponse,
  }),
  defineRoute({
    method: 'get',
    path: '/content/:collection/:id/preview',
    tag,
    summary: "The entry's latest draft for a site holding a preview link's token: no credential, that entry only, until the link expires",
    operation: readPreview,
    params: PreviewUrlParams,
    query: PreviewReadQuery,
    response: EntryItemResponse,
  }),
];
