import { queryOptions } from '@tanstack/react-query';
import { api, ApiError, dataOf } from '../api/client';

/** Entries whose title starts with what was typed, or with a word that does (published titles, fast). */
export function suggestQuery(typed: string) {
  return queryOptions({
    queryKey: ['palette', 'suggest', typed],
    queryFn: () => dataOf(api.GET('/_cms/api/search/suggest', { params: { query: { q: typed, limit: 8 } } })),
    enabled: typed.trim() !== '',
    retry: false,
    staleTime: 30_000,
  });
}

/** The full-text search over the working values editors see (drafts too). Its answer is bare JSON, not the envelope. */
export function searchQuery(q: string) {
  return queryOptions({
    queryKey: ['palette', 'search', q],
    queryFn: async () => {
      const { data, error, response } = await api.GET('/_cms/api/search', { params: { query: { q, status: 'draft', limit: 8 } } });
      if (data) return data;
      const failure = (error as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new ApiError(response.status, failure?.code ?? 'UNKNOWN', failure?.message ?? response.statusText);
    },
    enabled: q.trim() !== '',
    retry: false,
    staleTime: 30_000,
  });
}
