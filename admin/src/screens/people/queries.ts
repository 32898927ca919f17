import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';
import type { Role } from '../../roles';

/** Who the people screen lists: matching a name or email, of one role, or everyone. */
export interface PeopleFilter {
  search: string;
  role: Role | undefined;
}

/** The site's users, fifty at a time in the API's order (ids: oldest first). */
export const peopleQuery = (filter: PeopleFilter) =>
  infiniteQueryOptions({
    queryKey: ['users', 'list', filter],
    queryFn: ({ pageParam }) =>
      dataOf(
        api.GET('/_cms/api/admin/users', {
          params: { query: { limit: 50, ...(filter.search === '' ? {} : { search: filter.search }), ...(filter.role === undefined ? {} : { role: filter.role }), ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor,
  });

/** The first hundred people (the API's largest page), to choose one from a list. */
export const firstPeopleQuery = queryOptions({
  queryKey: ['users', 'first'],
  queryFn: () => dataOf(api.GET('/_cms/api/admin/users', { params: { query: { limit: 100 } } })),
});
