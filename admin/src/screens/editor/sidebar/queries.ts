import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../../api/client';

/** Every page of a cursor-paged list, one after the other (taxonomies' terms, bylines: small lists, read whole to be searched here). */
async function everyPage<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
  } while (cursor !== undefined);
  return items;
}

export const taxonomiesQuery = queryOptions({
  queryKey: ['taxonomies'],
  queryFn: () => dataOf(api.GET('/_cms/api/taxonomies')),
  staleTime: 60_000,
});

export function termsQuery(taxonomy: string) {
  return queryOptions({
    queryKey: ['terms', taxonomy],
    queryFn: () => everyPage((cursor) => dataOf(api.GET('/_cms/api/taxonomies/{name}/terms', { params: { path: { name: taxonomy }, query: { limit: 100, ...(cursor ? { cursor } : {}) } } }))),
  });
}

export function entryTermsQuery(collection: string, id: string, taxonomy: string) {
  return queryOptions({
    queryKey: ['entry-terms', collection, id, taxonomy],
    queryFn: () => dataOf(api.GET('/_cms/api/content/{collection}/{id}/terms/{taxonomy}', { params: { path: { collection, id, taxonomy } } })),
  });
}

export const bylinesQuery = queryOptions({
  queryKey: ['bylines'],
  queryFn: () => everyPage((cursor) => dataOf(api.GET('/_cms/api/bylines', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }))),
  staleTime: 60_000,
});

export function translationsQuery(collection: string, id: string) {
  return queryOptions({
    queryKey: ['translations', collection, id],
    queryFn: () => dataOf(api.GET('/_cms/api/content/{collection}/{id}/translations', { params: { path: { collection, id } } })),
  });
}
