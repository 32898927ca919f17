import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { notFound, validationError } from '../core/errors.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import type { MultipartBody } from '../http/body.ts';
import { findJob, enqueueJob } from '../jobs/store.ts';
import type { Job } from '../jobs/types.ts';
import { loadCollection } from '../schema/store.ts';
import { findUserById } from '../users/store.ts';
import { analyzeUpload, describeAnalysis, receiveUpload, removeExpiredAnalyses, requireAnalysis, summaryOf, type AnalysisView } from './analysis.ts';
import { defaultCollection } from './fields.ts';
import { importKind, totalOf, type ImportPayload } from './job.ts';
import { checkCollectionSlugs, prepareCollections, preparePostTypes, type PreparedType } from './prepare.ts';
import { buildReport } from './report.ts';
import { ExecuteConfig, type ExecuteJsonBody, type ImportJobView, type ImportProgress, type ImportReport, type PrepareBody } from './schemas.ts';
import * as store from './store.ts';

/** Every import endpoint is for admins (issue 15; DECISIONS §2 `admin`). */
const importAccess = access.scope('admin');

/** The file the export source reads; live-site sources (issue 16) add theirs beside it. */
const fileSource = 'wxr';

export const analyzeImport = defineOperation({
  name: 'import.analyze',
  access: importAccess,
  async run(ctx, input: { parts: MultipartBody }): Promise<AnalysisView> {
    await removeExpiredAnalyses(ctx);
    const upload = await receiveUpload(ctx, input.parts, []);
    return analyzeUpload(ctx, fileSource, upload);
  },
});

export const prepareImport = defineOperation({
  name: 'import.prepare',
  access: importAccess,
  async run(ctx, input: z.output<typeof PrepareBody>): Promise<{ items: PreparedType[] }> {
    return { items: await preparePostTypes(ctx, input) };
  },
});

type ExecuteRequest = Omit<z.output<typeof ExecuteJsonBody>, 'postTypeMappings'> & { postTypeMappings?: Record<string, { collection: string }> };

/**
 * Starts an import of an analysed upload: the mapped collections must exist (prepare makes them)
 * and get any import field they lack; the mapped users must exist. The job is queued; its status
 * and progress are at `GET /import/jobs/:id`.
 */
async function startImport(ctx: AuthorizedContext, request: ExecuteRequest): Promise<ImportJobView> {
  const analysis = await requireAnalysis(ctx, request.analysisId);
  const summary = summaryOf(analysis);
  const mappings: Record<string, string> = {};
  if (request.postTypeMappings) {
    const unknown = Object.keys(request.postTypeMappings).filter((name) => !summary.postTypes.some((type) => type.name === name));
    if (unknown.length > 0) throw validationError(unknown.map((name) => ({ path: `postTypeMappings.${name}`, message: `The export has no post type ${name}` })));
    for (const [name, { collection }] of Object.entries(request.postTypeMappings)) mappings[name] = collection;
  } else {
    for (const type of summary.postTypes) mappings[type.name] = defaultCollection(type.name);
  }
  checkCollectionSlugs(Object.values(mappings));
  const missing = [];
  for (const [name, collection] of Object.entries(mappings)) if (!(await loadCollection(ctx.db, collection))) missing.push({ path: `postTypeMappings.${name}`, message: `No collection ${collection}: POST /import/legacy/prepare creates it` });
  if (missing.length > 0) throw validationError(missing);
  const authorMapping = request.authorMapping ?? {};
  const users = [];
  for (const [login, userId] of Object.entries(authorMapping)) if (!(await findUserById(ctx.db, userId))) users.push({ path: `authorMapping.${login}`, message: `No user ${userId}` });
  if (users.length > 0) throw validationError(users);
  await prepareCollections(ctx, Object.entries(mappings).map(([name, collection]) => ({ postType: summary.postTypes.find((type) => type.name === name)!, collection })));
  const payload: ImportPayload = { analysisId: analysis.id, mappings, options: request.options, authorMapping };
  const id = await enqueueJob(ctx.db, importKind, payload, { now: isoNow(ctx.clock), createdBy: ctx.actor?.userId ?? null });
  return jobView(ctx, (await findJob(ctx.db, id))!);
}

/** Form B: `{analysisId, options}`, the upload analysed before. */
export const executeImport = defineOperation({
  name: 'import.execute',
  access: importAccess,
  async run(ctx, input: z.output<typeof ExecuteJsonBody>): Promise<ImportJobView> {
    return startImport(ctx, input);
  },
});

/** Form A: the file and its `config` in one multipart request; the file is analysed, then imported. */
export const executeUpload = defineOperation({
  name: 'import.executeUpload',
  access: importAccess,
  async run(ctx, input: { parts: MultipartBody }): Promise<ImportJobView> {
    const upload = await receiveUpload(ctx, input.parts, ['config']);
    let config: z.output<typeof ExecuteConfig>;
    try {
      const text = upload.fields.config;
      if (text === undefined) throw validationError([{ path: 'config', message: 'Required: a JSON part named config with postTypeMappings' }]);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw validationError([{ path: 'config', message: 'Must be JSON' }]);
      }
      const parsed = ExecuteConfig.safeParse(json);
      if (!parsed.success) throw validationError(parsed.error.issues.map((issue) => ({ path: ['config', ...issue.path].join('.'), message: issue.message })));
      config = parsed.data;
    } catch (error) {
      await ctx.storage.delete([upload.key]);
      throw error;
    }
    const analysis = await analyzeUpload(ctx, fileSource, upload);
    return startImport(ctx, { analysisId: analysis.analysisId, options: config.options, postTypeMappings: config.postTypeMappings, authorMapping: config.authorMapping });
  },
});

export const getAnalysis = defineOperation({
  name: 'import.getAnalysis',
  access: importAccess,
  async run(ctx, input: { id: string }): Promise<AnalysisView> {
    return describeAnalysis(ctx.db, await requireAnalysis(ctx, input.id));
  },
});

async function requireImportJob(ctx: AuthorizedContext, id: string): Promise<Job> {
  const job = await findJob(ctx.db, id);
  if (!job || job.kind !== importKind.kind) throw notFound(`Import job ${id}`);
  return job;
}

async function jobView(ctx: AuthorizedContext, job: Job): Promise<ImportJobView> {
  const payload = job.payload as ImportPayload;
  const analysis = await store.findAnalysis(ctx.db, payload.analysisId);
  const total = analysis ? totalOf(summaryOf(analysis)) : 0;
  const progress = (job.progress as ImportProgress | null) ?? { phase: 'queued', processed: 0, total };
  const view: ImportJobView = {
    id: job.id,
    state: job.state,
    analysisId: payload.analysisId,
    progress,
    attempts: job.attempts,
    lastError: job.lastError,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  };
  if (job.state === 'succeeded') view.report = job.result as ImportReport;
  else if (job.state === 'failed' && analysis) view.report = await buildReport(ctx.db, job.id, analysis.source_key, payload.options.includeMedia);
  return view;
}

export const getImportJob = defineOperation({
  name: 'import.getJob',
  access: importAccess,
  async run(ctx, input: { id: string }): Promise<{ item: ImportJobView }> {
    return { item: await jobView(ctx, await requireImportJob(ctx, input.id)) };
  },
});

const finished = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * `GET /import/jobs/:id/progress`: NDJSON, a line whenever the job's progress or state changes (read
 * from the database, so any process may be running it), the last one with the report.
 */
export const followImportJob = defineOperation({
  name: 'import.followJob',
  access: importAccess,
  async run(ctx, input: { id: string }): Promise<AsyncIterable<ImportJobView>> {
    await requireImportJob(ctx, input.id);
    return (async function* () {
      let last = '';
      for (;;) {
        const view = await jobView(ctx, await requireImportJob(ctx, input.id));
        const seen = JSON.stringify([view.state, view.progress, view.attempts]);
        if (seen !== last) {
          last = seen;
          yield view;
        }
        if (finished.has(view.state)) return;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    })();
  },
});

/** How often a followed job is read again. */
const pollMs = 250;
