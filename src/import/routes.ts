import { runLines, wholeResult } from '../core/streamed-run.ts';
import type { Config } from '../config.ts';
import { apiBasePath } from '../http/paths.ts';
import { preferences, respondAsync } from '../http/prefer.ts';
import { defineRoute } from '../http/route.ts';
import { callbackPath } from './hosted/connect.ts';
import { analyzeImport, connectCallback, connectImport, connectRedirect, executeImport, followImportJob, getAnalysis, getImportJob, importMedia, listAnalyses, listImportJobs, prepareImport, probeImport, resumeImport, rewriteUrls, type ExecuteAnswer } from './operations.ts';
import { AnalysesQuery, AnalysisListResponse, AnalysisResponse, CallbackQuery, ConnectBody, ConnectQuery, ConnectResponse, ExecuteHeaders, ExecuteJsonBody, HostedAnalyzeBody, ImportJobListResponse, ImportJobResponse, ImportJobSchema, ImportJobsQuery, JobParams, MediaImportBody, MediaLineSchema, MediaResultSchema, PrepareBody, PrepareResponse, ProbeBody, ProbeResponse, ResumeBody, RewriteBody, RewriteResultSchema } from './schemas.ts';

const tag = 'Import';

/** Where an import job's status is read: execute's Location when it answers before the import is done. */
const jobPath = (id: string) => `/import/jobs/${id}`;

/** An export file may be as large as IMPORT_UPLOAD_LIMIT, plus room for the multipart framing and config. */
const uploadLimit = { fromConfig: (config: Config) => config.import.uploadLimit + 64 * 1024, description: 'IMPORT_UPLOAD_LIMIT (default 1 GB) plus 64 KiB' };

async function* noLines(): AsyncGenerator<never> {}

/** How execute and resume answer: the finished job, its lines while it runs, or 202 with where to read it. */
const executeResult = {
  kind: 'ndjson',
  line: ImportJobSchema,
  // Asked for only when the answer streams (otherwise `whole` or `accepted` answered).
  lines: (answer: ExecuteAnswer) => (answer.kind === 'stream' ? answer.lines : noLines()),
  whole: { schema: ImportJobResponse, value: async (answer: ExecuteAnswer) => (answer.kind === 'finished' ? { item: answer.job } : undefined) },
} as const;

const executeAccepted = {
  schema: ImportJobResponse,
  answer: (answer: ExecuteAnswer) => (answer.kind === 'accepted' ? { location: `${apiBasePath}${jobPath(answer.job.id)}`, data: { item: answer.job } } : undefined),
};

export const importRoutes = [
  defineRoute({
    method: 'post',
    path: '/import/legacy/analyze',
    tag,
    summary:
      'Analyse a WordPress export file (multipart: file), or a WordPress.com site with an access token (JSON: {source: "legacy-hosted", url, accessToken}): post types and their target collections, authors, taxonomies, menus, media; keeps the upload (or the site) for execute',
    operation: analyzeImport,
    body: { jsonOrMultipart: { json: HostedAnalyzeBody, multipart: { limit: uploadLimit, parts: { file: 'file' } } } },
    input: ({ body }) => body,
    status: 201,
    response: AnalysisResponse,
  }),
  defineRoute({
    method: 'get',
    path: '/import/legacy/connect',
    tag,
    summary: 'Connect a WordPress.com site: redirects to its authorization page (WPCOM_CLIENT_ID and WPCOM_CLIENT_SECRET configured), which sends the admin back to the callback',
    operation: connectRedirect,
    query: ConnectQuery,
    result: { kind: 'redirect', location: (answer) => answer.authorizeUrl },
  }),
  defineRoute({
    method: 'post',
    path: '/import/legacy/connect',
    tag,
    summary: 'Connect a WordPress.com site: the authorization page to send the admin to, for clients that open it themselves',
    operation: connectImport,
    body: ConnectBody,
    response: ConnectResponse,
  }),
  defineRoute({
    method: 'get',
    path: callbackPath,
    tag,
    summary: 'Where WordPress.com sends the admin back: the state (used once, by the admin who connected) is checked, the code traded for an access token, and the site analysed',
    operation: connectCallback,
    query: CallbackQuery,
    status: 201,
    response: AnalysisResponse,
  }),
  defineRoute({ method: 'get', path: '/import/legacy/analyses', tag, summary: 'The analyses still kept (not expired), newest first: which site, when, how many entries', operation: listAnalyses, query: AnalysesQuery, response: AnalysisListResponse }),
  defineRoute({
    method: 'get',
    path: '/import/legacy/analyses/:id',
    tag,
    summary: 'An analysis again, its post types checked against the collections as they are now',
    operation: getAnalysis,
    params: JobParams,
    response: AnalysisResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/import/legacy/prepare',
    tag,
    summary: 'Create the collections and fields the enabled post types need',
    operation: prepareImport,
    body: PrepareBody,
    response: PrepareResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/import/legacy/execute',
    tag,
    summary:
      'Import: JSON {analysisId, options} for an analysed upload (form B), or multipart file and config {postTypeMappings} (form A). Answers when the import has finished, with the job and its report (200, also when the job failed: see its lastError); with stream, NDJSON progress lines ending with the finished job; with Prefer: respond-async, 202 at once with the queued job and its status URL in Location. A client that hangs up leaves the import running',
    operation: executeImport,
    headers: ExecuteHeaders,
    body: { jsonOrMultipart: { json: ExecuteJsonBody, multipart: { limit: uploadLimit, parts: { file: 'file', config: 'text' } } } },
    input: ({ body, headers }) => ({ body, respondAsync: preferences(headers.prefer).has(respondAsync) }),
    result: executeResult,
    accepted: executeAccepted,
  }),
  defineRoute({ method: 'get', path: '/import/jobs', tag, summary: 'The newest imports, newest first: their state, progress and reports', operation: listImportJobs, query: ImportJobsQuery, response: ImportJobListResponse }),
  defineRoute({
    method: 'post',
    path: '/import/jobs/:id/resume',
    tag,
    summary:
      'Resume an import that failed, or that waits to retry after a failed attempt: it goes on from where it stopped, and nothing it imported is imported twice (409 for an import running or finished). Answered as execute: when done, streamed with stream, or 202 at once with Prefer: respond-async',
    operation: resumeImport,
    params: JobParams,
    headers: ExecuteHeaders,
    body: ResumeBody,
    input: ({ params, body, headers }) => ({ id: params.id, stream: body.stream, respondAsync: preferences(headers.prefer).has(respondAsync) }),
    result: executeResult,
    accepted: executeAccepted,
  }),
  defineRoute({ method: 'get', path: jobPath(':id'), tag, summary: 'An import job: state, progress and, once finished, its report', operation: getImportJob, params: JobParams, response: ImportJobResponse }),
  defineRoute({
    method: 'get',
    path: '/import/jobs/:id/progress',
    tag,
    summary: 'Follow an import job as NDJSON: a line at each change of progress or state, the last with the report',
    operation: followImportJob,
    params: JobParams,
    result: { kind: 'ndjson', line: ImportJobSchema, lines: (lines) => lines },
  }),
  defineRoute({
    method: 'post',
    path: '/import/legacy/media',
    tag,
    summary: 'Download attachments into the media library (deduplicated by content); with stream, NDJSON: a line per file, then the result with the URL map',
    operation: importMedia,
    body: MediaImportBody,
    result: {
      kind: 'ndjson',
      line: MediaLineSchema,
      lines: runLines,
      whole: { schema: MediaResultSchema, value: wholeResult },
    },
  }),
  defineRoute({
    method: 'post',
    path: '/import/legacy/rewrite-urls',
    tag,
    summary: 'Replace old media URLs (size variants, http/https, www., query strings) in the imported entries and sections; without urlMap, by the map the media imports stored',
    operation: rewriteUrls,
    body: RewriteBody,
    response: RewriteResultSchema,
  }),
  defineRoute({
    method: 'post',
    path: '/import/probe',
    tag,
    summary: 'Which platform a site is (every import source probes it at once) and the next step: connect, upload its export file, or upload a file',
    operation: probeImport,
    body: ProbeBody,
    response: ProbeResponse,
  }),
];
