import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** The field types with what each accepts (decisions/0041): what the field form offers. */
export const fieldTypesQuery = queryOptions({
  queryKey: ['schema', 'field-types'],
  queryFn: () => dataOf(api.GET('/_cms/api/schema/field-types')),
  staleTime: Infinity,
});

/**
 * One collection with its fields and the counts of what deleting them destroys. Under the key of the
 * collections, so a change to the schema refreshes it with the navigation and the lists.
 */
export const schemaCollectionQuery = (slug: string) =>
  queryOptions({
    queryKey: ['collections', 'schema', slug],
    queryFn: () => dataOf(api.GET('/_cms/api/schema/collections/{slug}', { params: { path: { slug }, query: { includeFields: 'true', counts: 'true' } } })),
  });
