import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** The newest imports: the one still running is found again from here. */
export const importJobsQuery = queryOptions({
  queryKey: ['import', 'jobs'],
  queryFn: () => dataOf(api.GET('/_cms/api/import/jobs', { params: { query: { limit: 10 } } })),
  // Imports change in the server whatever this page does: read again whenever the screen opens.
  staleTime: 0,
});

/** The analyses still kept: a review left before its import is found again here. */
export const analysesQuery = queryOptions({
  queryKey: ['import', 'analyses'],
  queryFn: () => dataOf(api.GET('/_cms/api/import/legacy/analyses', { params: { query: { limit: 10 } } })),
  staleTime: 0,
});

export const analysisQuery = (id: string) =>
  queryOptions({
    queryKey: ['import', 'analysis', id],
    queryFn: () => dataOf(api.GET('/_cms/api/import/legacy/analyses/{id}', { params: { path: { id } } })),
    // An analysis is checked against the collections as they are: read again when the review opens.
    staleTime: 0,
  });
