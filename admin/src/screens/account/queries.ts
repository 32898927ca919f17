import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** What the account screen reads: the signed-in person's passkeys and the apps they connected over OAuth. */

export const passkeysQuery = queryOptions({
  queryKey: ['account', 'passkeys'],
  queryFn: () => dataOf(api.GET('/_cms/api/auth/passkey')),
});

export const grantsQuery = queryOptions({
  queryKey: ['account', 'grants'],
  queryFn: () => dataOf(api.GET('/_cms/api/auth/grants')),
});
