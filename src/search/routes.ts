import { defineRoute } from '../http/route.ts';
import { indexStats, rebuildIndex, searchContent, suggestTitles } from './operations.ts';
import { RebuildBody, RebuildResponse, SearchQueryParams, SearchResponse, StatsResponse, SuggestQueryParams, SuggestResponse } from './schemas.ts';

const tag = 'Search';

export const searchRoutes = [
  defineRoute({
    method: 'get',
    path: '/search',
    tag,
    summary: 'Full-text search, best matches first; the one bare response (no envelope)',
    operation: searchContent,
    query: SearchQueryParams,
    result: { kind: 'json', schema: SearchResponse },
  }),
  defineRoute({ method: 'get', path: '/search/suggest', tag, summary: 'Published titles that start with the text, or with a word that does', operation: suggestTitles, query: SuggestQueryParams, response: SuggestResponse }),
  defineRoute({ method: 'post', path: '/search/rebuild', tag, summary: 'Rebuild the index in batches while the site keeps serving', operation: rebuildIndex, body: RebuildBody, response: RebuildResponse }),
  defineRoute({ method: 'get', path: '/search/stats', tag, summary: 'Indexed entries and documents per collection with search', operation: indexStats, response: StatsResponse }),
];
