import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** Per collection with search: entries indexed and their documents. */
export const searchStatsQuery = queryOptions({
  queryKey: ['search', 'stats'],
  queryFn: () => dataOf(api.GET('/_cms/api/search/stats')),
});
