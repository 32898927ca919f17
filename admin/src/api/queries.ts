import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, dataOf, type Entry } from './client';

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
  term?: string;
  locale?: string;
  /** Only entries whose title contains this text (the API's `q`). */
  q?: string;
};

/** One page of a collection's entries. */
export function entryPageQuery(collection: string, params: ListParams & { limit: number }) {
  return queryOptions({
    queryKey: ['entries', collection, params],
    queryFn: () => dataOf(api.GET('/_cms/api/content/{collection}', { params: { path: { collection }, query: params } })),
  });
}

/** The people who created a collection's entries whose name contains `text` (a picker's first 20). */
export function authorsQuery(collection: string, text: string) {
  return queryOptions({
    queryKey: ['authors', collection, text],
    queryFn: () => dataOf(api.GET('/_cms/api/authors', { params: { query: { collection, limit: 20, ...(text === '' ? {} : { q: text }) } } })),
  });
}

/**
 * The name of one of a collection's authors, for a filter read from the URL: their pages are walked
 * until the id turns up (a collection has few authors; no page is read past the one that names them).
 */
export function authorNameQuery(collection: string, id: string) {
  return queryOptions({
    queryKey: ['authors', collection, 'name', id],
    queryFn: async () => {
      let cursor: string | undefined;
      do {
        const page = await dataOf(api.GET('/_cms/api/authors', { params: { query: { collection, limit: 100, ...(cursor ? { cursor } : {}) } } }));
        const found = page.items.find((author) => author.id === id);
        if (found) return found.name;
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return null;
    },
    staleTime: 60_000,
  });
}

/** What a list shows: entries as GET /content/:collection filters and orders them, the trash, or the matches of a search. */
export type ListView = ListParams | { status: 'trash' } | { search: string };

/** One row of a list: an entry, or a search's match (its title and the passage that matched, as text). */
export type ListRow = { id: string; entry: Entry } | { id: string; match: { title: string; snippet: string } };

/** The search's passage without its `<mark>` tags, as plain text (the table shows text, never markup). */
function snippetText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/**
 * A collection's entries page after page, each page asked for with the previous one's cursor. A
 * search goes through /search (the working values editors see, this collection only), whose answer
 * is bare JSON, not the envelope.
 */
export function entryListQuery(collection: string, view: ListView) {
  return infiniteQueryOptions({
    queryKey: ['entries', collection, view, 'all'],
    queryFn: async ({ pageParam }): Promise<{ items: ListRow[]; nextCursor?: string }> => {
      const cursor = pageParam ? { cursor: pageParam } : {};
      if ('search' in view) {
        const query = { q: view.search, collections: collection, status: 'draft' as const, limit: 50, ...cursor };
        const { data, error, response } = await api.GET('/_cms/api/search', { params: { query } });
        if (!data) return dataOf(Promise.resolve({ error, response }));
        return { items: data.results.map((hit) => ({ id: hit.id, match: { title: hit.title, snippet: snippetText(hit.snippet) } })), nextCursor: data.nextCursor };
      }
      const page = { limit: 100, ...cursor };
      const entries =
        view.status === 'trash'
          ? await dataOf(api.GET('/_cms/api/content/{collection}/trash', { params: { path: { collection }, query: page } }))
          : await dataOf(api.GET('/_cms/api/content/{collection}', { params: { path: { collection }, query: { ...view, ...page } } }));
      return { items: entries.items.map((entry) => ({ id: entry.id, entry })), nextCursor: entries.nextCursor };
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

/** What the list's selection can do, as `POST /content/:collection/bulk` names it. */
export type BulkAction = 'publish' | 'unpublish' | 'trash' | 'restore' | 'delete';

/**
 * One action on every id, 100 at a time (the endpoint's limit), in order; the answers per id, the
 * refusals among them.
 */
export async function runBulkAction(collection: string, action: BulkAction, ids: readonly string[]) {
  const results = [];
  for (let start = 0; start < ids.length; start += 100) {
    const body = { action, ids: ids.slice(start, start + 100) };
    results.push(...(await dataOf(api.POST('/_cms/api/content/{collection}/bulk', { params: { path: { collection } }, body }))).items);
  }
  return results;
}

/** The taxonomy definitions, with the collections each applies to. */
export const taxonomiesQuery = queryOptions({
  queryKey: ['taxonomies'],
  queryFn: () => dataOf(api.GET('/_cms/api/taxonomies')),
  staleTime: 60_000,
});

/** Every page of a cursor-paged list, one after the other (terms, bylines: small lists, read whole to be searched in the browser). */
export async function everyPage<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
  } while (cursor !== undefined);
  return items;
}

/** Every term of a taxonomy (a picker narrows them as the person types). */
export function termsQuery(taxonomy: string) {
  return queryOptions({
    queryKey: ['terms', taxonomy],
    queryFn: () => everyPage((cursor) => dataOf(api.GET('/_cms/api/taxonomies/{name}/terms', { params: { path: { name: taxonomy }, query: { limit: 100, ...(cursor ? { cursor } : {}) } } }))),
    staleTime: 60_000,
  });
}
