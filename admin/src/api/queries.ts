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

/** The filters and order of GET /content/:collection. */
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

/** What a list shows: entries as GET /content/:collection filters and orders them, or the trash. */
export type ListView = ListParams | { status: 'trash' };

/** A collection's entries page after page, each page asked for with the previous one's cursor. */
export function entryListQuery(collection: string, view: ListView) {
  return infiniteQueryOptions({
    queryKey: ['entries', collection, view, 'all'],
    queryFn: ({ pageParam }) => {
      const page = { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) };
      return view.status === 'trash'
        ? dataOf(api.GET('/_cms/api/content/{collection}/trash', { params: { path: { collection }, query: page } }))
        : dataOf(api.GET('/_cms/api/content/{collection}', { params: { path: { collection }, query: { ...view, ...page } } }));
    },
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** The site's settings: its time zone, for dates written in the editor. */
export const settingsQuery = queryOptions({
  queryKey: ['settings'],
  queryFn: () => dataOf(api.GET('/_cms/api/settings')),
  staleTime: 60_000,
});

/** One entry as editors read it (its draft in `data`, with `_rev`). */
export function entryQuery(collection: string, id: string) {
  return queryOptions({
    queryKey: ['entry', collection, id],
    queryFn: () => dataOf(api.GET('/_cms/api/content/{collection}/{id}', { params: { path: { collection, id } } }), { onUnauthorized: 'throw' }),
    retry: false,
  });
}

/** An entry's revisions, newest first, with who saved each and when (the API gives at most 100 at once). */
export function revisionListQuery(collection: string, id: string) {
  return queryOptions({
    queryKey: ['revisions', collection, id],
    queryFn: () => dataOf(api.GET('/_cms/api/content/{collection}/{id}/revisions', { params: { path: { collection, id }, query: { limit: 100 } } })),
  });
}

/** What the media library shows: its search text and a type, a MIME type prefix (`image/`). */
export type MediaFilter = { q?: string; mimeType?: string };

/** The library newest first, page after page (GET /media's cursor). */
export function mediaListQuery(filter: MediaFilter) {
  return infiniteQueryOptions({
    queryKey: ['media', 'list', filter],
    queryFn: ({ pageParam }) => dataOf(api.GET('/_cms/api/media', { params: { query: { ...filter, limit: 60, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** The entries that name a media item (the first 100: a warning names them, it does not list thousands). */
export function mediaUsageQuery(id: string) {
  return queryOptions({
    queryKey: ['media', 'usage', id],
    queryFn: () => dataOf(api.GET('/_cms/api/media/{id}/usage', { params: { path: { id }, query: { limit: 100 } } })),
    staleTime: 0,
  });
}
