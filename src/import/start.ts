import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { validationError } from '../core/errors.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { enqueueJob, findJob } from '../jobs/store.ts';
import { findUserById } from '../users/store.ts';
import { requireAnalysis, summaryOf } from './analysis.ts';
import { defaultCollection } from './fields.ts';
import { importKind, type ImportPayload } from './job/job.ts';
import { jobView } from './job/view.ts';
import { checkCollectionSlugs, prepareCollections, readTargets } from './prepare.ts';
import type { ExecuteJsonBody, ImportJobView } from './schemas.ts';

/** What an import is started with; how the request is answered (`stream`) is the adapter's business. */
export type ExecuteRequest = Omit<z.output<typeof ExecuteJsonBody>, 'postTypeMappings' | 'stream'> & { postTypeMappings?: Record<string, { collection: string }> };

/**
 * Starts an import of an analysed upload: the mapped collections must exist (prepare makes them)
 * and get any import field they lack; the mapped users must exist. The job is queued, for whoever
 * runs it (execute's own request, the CLI, or any server's runner); its status and progress are at
 * `GET /import/jobs/:id`.
 */
export async function startImport(ctx: AuthorizedContext, request: ExecuteRequest): Promise<ImportJobView> {
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
  const targets = await readTargets(ctx.db, Object.values(mappings));
  const missing = [];
  for (const [name, collection] of Object.entries(mappings)) if (!targets.get(collection)) missing.push({ path: `postTypeMappings.${name}`, message: `No collection ${collection}: POST /import/legacy/prepare creates it` });
  if (missing.length > 0) throw validationError(missing);
  const authorMapping = request.authorMapping ?? {};
  const users = [];
  for (const [login, userId] of Object.entries(authorMapping)) if (!(await findUserById(ctx.db, userId))) users.push({ path: `authorMapping.${login}`, message: `No user ${userId}` });
  if (users.length > 0) throw validationError(users);
  await prepareCollections(ctx, Object.entries(mappings).map(([name, collection]) => ({ postType: summary.postTypes.find((type) => type.name === name)!, collection })), targets);
  const payload: ImportPayload = { analysisId: analysis.id, mappings, options: request.options, authorMapping };
  const id = await enqueueJob(ctx.db, importKind, payload, { now: isoNow(ctx.clock), createdBy: ctx.actor?.userId ?? null });
  return jobView(ctx, (await findJob(ctx.db, id))!);
}
