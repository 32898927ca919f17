import { EntryItemResponse } from '../content/schemas.ts';
import { defineRoute } from '../http/route.ts';
import { getRevision, listRevisions, restoreRevision } from './operations.ts';
import { EntryRevisionsParams, ListRevisionsQuery, RevisionItemResponse, RevisionListResponse, RevisionParams } from './schemas.ts';

const tag = 'Revisions';

export const revisionRoutes = [
  defineRoute({
    method: 'get',
    path: '/content/:collection/:id/revisions',
    tag,
    summary: "An entry's revisions, newest first",
    operation: listRevisions,
    params: EntryRevisionsParams,
    query: ListRevisionsQuery,
    response: RevisionListResponse,
  }),
  defineRoute({ method: 'get', path: '/revisions/:revisionId', tag, summary: 'Get a revision', operation: getRevision, params: RevisionParams, response: RevisionItemResponse }),
  defineRoute({
    method: 'post',
    path: '/revisions/:revisionId/restore',
    tag,
    summary: "Make a revision's values the current draft (never publishes); adds a revision",
    operation: restoreRevision,
    params: RevisionParams,
    response: EntryItemResponse,
  }),
];
