import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../../api/client';
import { everyPage } from '../../../api/queries';

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
