import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';
import { everyPage } from '../../api/queries';

/** Every section (a site has tens, not thousands), found again by the list's own search. */
export const sectionsQuery = queryOptions({
  queryKey: ['sections'],
  queryFn: () => everyPage((cursor) => dataOf(api.GET('/_cms/api/sections', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }))),
});

export const sectionQuery = (slug: string) =>
  queryOptions({
    queryKey: ['sections', slug],
    queryFn: () => dataOf(api.GET('/_cms/api/sections/{slug}', { params: { path: { slug } } })),
  });
