import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute, paramsWithBody } from '../http/route.ts';
import { createRedirect, deleteRedirect, getRedirect, listRedirects, lookupRedirect, updateRedirect } from './operations.ts';
import { CreateRedirectBody, ListRedirectsQuery, LookupRedirectQuery, RedirectItemResponse, RedirectListResponse, RedirectLookupResponse, RedirectParams, UpdateRedirectBody } from './schemas.ts';

const tag = 'Redirects';

export const redirectRoutes = [
  defineRoute({
    method: 'get',
    path: '/redirects',
    tag,
    summary: 'Redirects by from, one page at a time (text, source and missing-target filters)',
    operation: listRedirects,
    query: ListRedirectsQuery,
    response: RedirectListResponse,
  }),
  defineRoute({ method: 'post', path: '/redirects', tag, summary: 'Create a redirect; one that would loop is refused', operation: createRedirect, body: CreateRedirectBody, status: 201, response: RedirectItemResponse }),
  // Before `/redirects/:id`, which would take `lookup` for an id.
  defineRoute({
    method: 'get',
    path: '/redirects/lookup',
    tag,
    summary: 'Public: where a path the site could not serve has gone ({to, status}), else 404; the hit is counted',
    operation: lookupRedirect,
    query: LookupRedirectQuery,
    response: RedirectLookupResponse,
  }),
  defineRoute({ method: 'get', path: '/redirects/:id', tag, summary: 'Get a redirect', operation: getRedirect, params: RedirectParams, response: RedirectItemResponse }),
  defineRoute({
    method: 'put',
    path: '/redirects/:id',
    tag,
    summary: 'Change a redirect (from, to, status)',
    operation: updateRedirect,
    params: RedirectParams,
    body: UpdateRedirectBody,
    input: paramsWithBody,
    response: RedirectItemResponse,
  }),
  defineRoute({ method: 'delete', path: '/redirects/:id', tag, summary: 'Delete a redirect', operation: deleteRedirect, params: RedirectParams, response: DeletedResponse }),
];
