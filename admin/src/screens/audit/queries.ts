import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';
import type { operations } from '../../api/schema';

export type AuditFilter = Omit<NonNullable<operations['auditLog.list']['parameters']['query']>, 'cursor' | 'limit'>;

/** The audit log, newest first, fifty records a page (keyset paging by the API's cursor). */
export const auditQuery = (filter: AuditFilter) =>
  infiniteQueryOptions({
    queryKey: ['audit', filter],
    queryFn: ({ pageParam }) => dataOf(api.GET('/_cms/api/plugins/audit-log/events', { params: { query: { ...filter, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor,
  });
