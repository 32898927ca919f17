import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** Every personal access token of the site (admins: DECISIONS §2), newest last as the API lists them. */
export const tokensQuery = queryOptions({
  queryKey: ['tokens'],
  queryFn: () => dataOf(api.GET('/_cms/api/admin/tokens')),
});
