import { defineRoute } from '../http/route.ts';
import { createByline, getByline, listBylines } from './operations.ts';
import { BylineItemResponse, BylineListResponse, BylineParams, CreateBylineBody, ListBylinesQuery } from './schemas.ts';

const tag = 'Bylines';

export const bylineRoutes = [
  defineRoute({ method: 'get', path: '/bylines', tag, summary: 'Bylines by slug, one page at a time', operation: listBylines, query: ListBylinesQuery, response: BylineListResponse }),
  defineRoute({ method: 'post', path: '/bylines', tag, summary: "Create a guest byline, or a user's", operation: createByline, body: CreateBylineBody, status: 201, response: BylineItemResponse }),
  defineRoute({ method: 'get', path: '/bylines/:id', tag, summary: 'Get a byline', operation: getByline, params: BylineParams, response: BylineItemResponse }),
];
