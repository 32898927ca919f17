import { runLines, wholeResult } from '../core/streamed-run.ts';
import { defineRoute } from '../http/route.ts';
import { indexStats, rebuildIndex, searchContent, suggestTitles } from './operations.ts';
import { RebuildBody, RebuildLineSchema, RebuildResultSchema, SearchQueryParams, SearchResponse, StatsResponse, SuggestQueryParams, SuggestResponse } from './schemas.ts';

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
  defineRoute({
    method: 'post',
    path: '/search/rebuild',
    tag,
    summary: 'Rebuild the index in batches while the site keeps serving; with stream, NDJSON: a progress line per batch, then the result. A client that hangs up leaves the rebuild running',
    operation: rebuildIndex,
    body: RebuildBody,
    result: { kind: 'ndjson', line: RebuildLineSchema, lines: runLines, whole: { schema: RebuildResultSchema, value: wholeResult } },
  }),
  defineRoute({ method: 'get', path: '/search/stats', tag, summary: 'Indexed entries and documents per collection with search', operation: indexStats, response: StatsResponse }),
];
