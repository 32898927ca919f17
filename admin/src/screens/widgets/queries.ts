import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

export const areasQuery = queryOptions({
  queryKey: ['widget-areas'],
  queryFn: () => dataOf(api.GET('/_cms/api/widget-areas')),
});

/** One area with its widgets in order, each menu or section as it is now (or missing). */
export const areaQuery = (name: string) =>
  queryOptions({
    queryKey: ['widget-areas', name],
    queryFn: () => dataOf(api.GET('/_cms/api/widget-areas/{name}', { params: { path: { name } } })),
  });
