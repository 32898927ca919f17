import { queryOptions, useQueries } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** One person, to name who owns something; kept a minute, since a name seldom changes. */
const personQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', id],
    queryFn: () => dataOf(api.GET('/_cms/api/admin/users/{id}', { params: { path: { id } } })),
    staleTime: 60_000,
  });

/**
 * The names of the people `ids` name (a token's owner, an app's person): one request per person,
 * since a site has few owners of such things; an id whose person is not read yet is not in the map.
 */
export function usePeopleNames(ids: readonly string[]): Map<string, string> {
  const distinct = [...new Set(ids)];
  const people = useQueries({ queries: distinct.map((id) => personQuery(id)) });
  return new Map(people.flatMap((person, index) => (person.data ? [[distinct[index]!, person.data.item.name] as const] : [])));
}
