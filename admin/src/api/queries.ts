import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, dataOf } from './client';

/** What the panel reads, one definition each, shared by the screens that show it (TanStack Query keys). */

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => dataOf(api.GET('/_cms/api/auth/me')),
  staleTime: 60_000,
});

/** The collections with their fields: the navigation, the columns of lists. */
export const collectionsQuery = queryOptions({
  queryKey: ['collections'],
  queryFn: () => dataOf(api.GET('/_cms/api/content')),
  staleTime: 60_000,
});

/** The same with entries counted by status: a pass over every table, for the dashboard alone. */
export const collectionCountsQuery = queryOptions({
  queryKey: ['collections', 'counts'],
  queryFn: () => dataOf(api.GET('/_cms/api/content', { params: { query: { counts: 'true' } } })),
});

export type ListParams = {
  status?: 'draft' | 'published' | 'scheduled';
  orderBy?: string;
  order?: 'asc' | 'desc';
  author?: string;
};

/** One page of a collection's entries. */
export function entryPageQuery(collection: string, params: ListParams & { limit: number }) {
  return queryOptions({
    queryKey: ['entries', collection, params],
    queryFn: () => dataOf(api.GET('/_cms/api/content/{collection}', { params: { path: { collection }, query: params } })),
  });
}

/** A collection's entries page after page, each page asked for with the previous one's cursor. */
export function entryListQuery(collection: string, params: ListParams) {
  return infiniteQueryOptions({
    queryKey: ['entries', collection, params, 'all'],
    queryFn: ({ pageParam }) =>
      dataOf(api.GET('/_cms/api/content/{collection}', { params: { path: { collection }, query: { ...params, limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor,
  });
}
