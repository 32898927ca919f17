import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

export const menusQuery = queryOptions({
  queryKey: ['menus'],
  queryFn: () => dataOf(api.GET('/_cms/api/menus')),
});

/** One menu with its items nested and in order, each saying whether its target is missing. */
export const menuQuery = (name: string) =>
  queryOptions({
    queryKey: ['menus', name],
    queryFn: () => dataOf(api.GET('/_cms/api/menus/{name}', { params: { path: { name } } })),
  });
