import type { z } from 'zod';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import type { MultipartBody } from '../http/body.ts';
import { analysisSummary, analyzeSite, analyzeUpload, describeAnalysis, receiveUpload, requireAnalysis, type AnalysisSummary, type AnalysisView } from './analysis.ts';
import * as store from './store.ts';
import { finishConnection, startConnection, type ConnectAnswer } from './hosted/connect.ts';
import { hasFinished, importJobUpdates, runImportHere } from './job/run-here.ts';
import { jobView, requireImportJob } from './job/view.ts';
import { preparePostTypes, type PreparedType } from './prepare.ts';
import { ExecuteConfig, type ExecuteJsonBody, type ImportJobView, type PrepareBody } from './schemas.ts';
import { startImport } from './start.ts';
import { AppError, validationError } from '../core/errors.ts';
import { isoNow } from '../core/clock.ts';
import { findJob, listJobs, requeueJob } from '../jobs/store.ts';
import { importKind } from './job/job.ts';
import { importAttachments, type FileLine, type MediaResult } from './media/import-media.ts';
import type { StreamedRun } from '../core/streamed-run.ts';
import { storedUrlMap } from './media/downloaded.ts';
import { rewriteImportedUrls, type RewriteResult } from './media/rewrite.ts';
import { probeUrl, type ProbeAnswer } from './probe.ts';
import type { CallbackQuery, ConnectBody, HostedAnalyzeBody, MediaImportBody, ProbeBody, RewriteBody } from './schemas.ts';

/** Every import endpoint is for admins (issue 15; DECISIONS §2 `admin`). */
const importAccess = access.scope('admin');

/** The source of an uploaded file; a live site names its source in the JSON body. */
const fileSource = 'wxr';

/** `POST /import/legacy/analyze`: an export file (multipart), or a live site with its access token (JSON). */
export const analyzeImport = defineOperation({
  name: 'import.analyze',
  access: importAccess,
  async run(ctx, input: { form: 'json'; value: z.output<typeof HostedAnalyzeBody> } | { form: 'multipart'; parts: MultipartBody }): Promise<AnalysisView> {
    // An import usually follows its analysis: the process that will run it starts loading now.
    ctx.importJobProcess?.warm(ctx.log);
    if (input.form === 'json') return analyzeSite(ctx, input.value.source, { type: 'oauth', url: input.value.url, accessToken: input.value.accessToken });
    const upload = await receiveUpload(ctx, input.parts, []);
    return analyzeUpload(ctx, fileSource, upload);
  },
});

/** `POST /import/legacy/connect`: WordPress.com's authorization page for the site, with a state bound to the admin. */
export const connectImport = defineOperation({
  name: 'import.connect',
  access: importAccess,
  async run(ctx, input: z.output<typeof ConnectBody>): Promise<ConnectAnswer> {
    return startConnection(ctx, input.url);
  },
});

/** `GET /import/legacy/connect`: the same, for a browser, which is sent there. */
export const connectRedirect = defineOperation({ ...connectImport, name: 'import.connectRedirect' });

/** `GET /import/legacy/callback`: WordPress.com sent the admin back; the code becomes a token, and the site is analysed. */
export const connectCallback = defineOperation({
  name: 'import.connectCallback',
  access: importAccess,
  async run(ctx, input: z.output<typeof CallbackQuery>): Promise<AnalysisView> {
    ctx.importJobProcess?.warm(ctx.log);
    return finishConnection(ctx, input);
  },
});

export const prepareImport = defineOperation({
  name: 'import.prepare',
  access: importAccess,
  async run(ctx, input: z.output<typeof PrepareBody>): Promise<{ items: PreparedType[] }> {
    return { items: await preparePostTypes(ctx, input) };
  },
});

/** How execute answers: the finished job; the job still to do (202); or NDJSON lines while it runs. */
export type ExecuteAnswer = { kind: 'finished'; job: ImportJobView } | { kind: 'accepted'; job: ImportJobView } | { kind: 'stream'; lines: AsyncIterable<ImportJobView> };

export type ExecuteInput = {
  body: { form: 'json'; value: z.output<typeof ExecuteJsonBody> } | { form: 'multipart'; parts: MultipartBody };
  /** The client said `Prefer: respond-async`: it will not wait. */
  respondAsync: boolean;
};

/**
 * `POST /import/legacy/execute`, in either form of import.md: B, JSON `{analysisId, options}` for an
 * upload analysed before; A, multipart `file` and `config` (JSON with `postTypeMappings`), the file
 * analysed and imported in one request. "Imports content": the request runs the job and answers when
 * it is done, with the report (or streams its progress), unless the client prefers not to wait.
 */
export const executeImport = defineOperation({
  name: 'import.execute',
  access: importAccess,
  async run(ctx, input: ExecuteInput): Promise<ExecuteAnswer> {
    const { job, stream } = await queueImport(ctx, input.body);
    return answerImport(ctx, job, { stream, respondAsync: input.respondAsync });
  },
});

/**
 * A queued import answered as the client asked: at once (respond-async), or run here and answered
 * when done, or streamed while it runs here.
 */
async function answerImport(ctx: AuthorizedContext, job: ImportJobView, asked: { stream: boolean; respondAsync: boolean }): Promise<ExecuteAnswer> {
  if (asked.respondAsync) return { kind: 'accepted', job };
  const running = runImportHere(ctx, job.id);
  if (asked.stream) {
    // The lines are only watched: a client that hangs up stops the reading, never the run.
    running.catch((error: unknown) => ctx.log.error({ err: error, jobId: job.id }, 'running an import for its request failed; the job is left to the runners'));
    return { kind: 'stream', lines: importJobUpdates(ctx, job.id, running) };
  }
  const settled = await running;
  return { kind: hasFinished(settled) ? 'finished' : 'accepted', job: await jobView(ctx, settled) };
}

/**
 * `POST /import/jobs/:id/resume`: an import that failed, or waits to retry after a failed attempt,
 * goes on now from where it stopped (what it imported is not imported again), answered as execute is.
 */
export const resumeImport = defineOperation({
  name: 'import.resume',
  access: importAccess,
  async run(ctx, input: { id: string; stream: boolean; respondAsync: boolean }): Promise<ExecuteAnswer> {
    const job = await requireImportJob(ctx, input.id);
    if (!(await requeueJob(ctx.db, job.id, isoNow(ctx.clock)))) {
      throw new AppError('CONFLICT', `Import job ${job.id} is ${job.state}: only a failed import, or one waiting to retry, can be resumed`);
    }
    return answerImport(ctx, await jobView(ctx, (await findJob(ctx.db, job.id))!), input);
  },
});

/** `GET /import/jobs`: the newest imports, so a page opened again finds the one still running. */
export const listImportJobs = defineOperation({
  name: 'import.listJobs',
  access: importAccess,
  async run(ctx, input: { limit: number }): Promise<{ items: ImportJobView[] }> {
    const jobs = await listJobs(ctx.db, importKind.kind, input.limit);
    return { items: await Promise.all(jobs.map((job) => jobView(ctx, job))) };
  },
});

/** Form B's analysis, or form A's file analysed: the import queued, and whether to stream. */
async function queueImport(ctx: AuthorizedContext, body: ExecuteInput['body']): Promise<{ job: ImportJobView; stream: boolean }> {
  if (body.form === 'json') return { job: await startImport(ctx, body.value), stream: body.value.stream };
  // Form A: the file is analysed first, while the process that will run the import loads.
  ctx.importJobProcess?.warm(ctx.log);
  const upload = await receiveUpload(ctx, body.parts, ['config']);
  let config: z.output<typeof ExecuteConfig>;
  try {
    config = parseConfig(upload.fields.config);
  } catch (error) {
    await ctx.storage.delete([upload.key]);
    throw error;
  }
  const analysis = await analyzeUpload(ctx, fileSource, upload);
  const job = await startImport(ctx, { analysisId: analysis.analysisId, options: config.options, postTypeMappings: config.postTypeMappings, authorMapping: config.authorMapping });
  return { job, stream: config.stream };
}

/** Form A's `config` part, as JSON. */
function parseConfig(text: string | undefined): z.output<typeof ExecuteConfig> {
  if (text === undefined) throw validationError([{ path: 'config', message: 'Required: a JSON part named config with postTypeMappings' }]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw validationError([{ path: 'config', message: 'Must be JSON' }]);
  }
  const parsed = ExecuteConfig.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error.issues.map((issue) => ({ path: ['config', ...issue.path].join('.'), message: issue.message })));
  return parsed.data;
}

/**
 * `GET /import/legacy/analyses`: the analyses still kept, newest first, so an admin finds one again
 * (a review left, a WordPress.com site connected in another tab).
 */
export const listAnalyses = defineOperation({
  name: 'import.listAnalyses',
  access: importAccess,
  async run(ctx, input: { limit: number }): Promise<{ items: AnalysisSummary[] }> {
    return { items: (await store.listAnalyses(ctx.db, isoNow(ctx.clock), input.limit)).map(analysisSummary) };
  },
});

export const getAnalysis = defineOperation({
  name: 'import.getAnalysis',
  access: importAccess,
  async run(ctx, input: { id: string }): Promise<AnalysisView> {
    return describeAnalysis(ctx.db, await requireAnalysis(ctx, input.id));
  },
});

export const getImportJob = defineOperation({
  name: 'import.getJob',
  access: importAccess,
  async run(ctx, input: { id: string }): Promise<{ item: ImportJobView }> {
    return { item: await jobView(ctx, await requireImportJob(ctx, input.id)) };
  },
});

/**
 * `GET /import/jobs/:id/progress`: NDJSON, a line whenever the job's progress or state changes (read
 * from the database, so any process may be running it), the last one with the report.
 */
export const followImportJob = defineOperation({
  name: 'import.followJob',
  access: importAccess,
  async run(ctx, input: { id: string }): Promise<AsyncIterable<ImportJobView>> {
    await requireImportJob(ctx, input.id);
    return importJobUpdates(ctx, input.id);
  },
});

/**
 * `POST /import/legacy/media`: the attachments' files downloaded into the media library (src/import/
 * media/), answered line by line (`stream`) or as the result alone.
 */
export const importMedia = defineOperation({
  name: 'import.media',
  access: importAccess,
  async run(ctx, input: z.output<typeof MediaImportBody>): Promise<StreamedRun<FileLine, MediaResult>> {
    return { stream: input.stream, run: (onLine) => importAttachments(ctx, input.attachments, onLine) };
  },
});

/**
 * `POST /import/legacy/rewrite-urls`: old media URLs in the imported entries and sections replaced,
 * by the given map or by the one the media imports stored.
 */
export const rewriteUrls = defineOperation({
  name: 'import.rewriteUrls',
  access: importAccess,
  async run(ctx, input: z.output<typeof RewriteBody>): Promise<RewriteResult> {
    return rewriteImportedUrls(ctx, input.urlMap ?? (await storedUrlMap(ctx)));
  },
});

/** `POST /import/probe`: which platform a URL is, and what to do next. */
export const probeImport = defineOperation({
  name: 'import.probe',
  access: importAccess,
  async run(ctx, input: z.output<typeof ProbeBody>): Promise<ProbeAnswer> {
    return probeUrl(ctx, input.url);
  },
});
