import { notFound } from '../../core/errors.ts';
import type { AuthorizedContext } from '../../core/operation.ts';
import { findJob } from '../../jobs/store.ts';
import type { Job } from '../../jobs/types.ts';
import { summaryOf } from '../analysis.ts';
import { importKind, totalOf, type ImportPayload } from './job.ts';
import { buildReport } from './report.ts';
import type { ImportJobView, ImportProgress, ImportReport } from '../schemas.ts';
import * as store from '../store.ts';

export async function requireImportJob(ctx: AuthorizedContext, id: string): Promise<Job> {
  const job = await findJob(ctx.db, id);
  if (!job || job.kind !== importKind.kind) throw notFound(`Import job ${id}`);
  return job;
}

export async function jobView(ctx: AuthorizedContext, job: Job): Promise<ImportJobView> {
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
  else if (job.state === 'failed' && analysis) view.report = await buildReport(ctx.db, job.id, summaryOf(analysis));
  return view;
}
