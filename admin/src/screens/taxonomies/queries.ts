import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** A taxonomy's every term as a tree, in order, with entry counts (one request whatever its size). */
export const termTreeQuery = (name: string) =>
  queryOptions({
    queryKey: ['terms', name, 'tree'],
    queryFn: () => dataOf(api.GET('/_cms/api/taxonomies/{name}/tree', { params: { path: { name } } })),
  });
