import type { Schemas } from '../../api/client';
import type { Translate } from '../../i18n/i18n';

export type ImportJob = Schemas['ImportJob'];

/** An import that stopped after a failed attempt: failed for good, or waiting to try again. */
export function hasStopped(job: ImportJob): boolean {
  return job.state === 'failed' || (job.state === 'queued' && job.lastError !== null);
}

/** One line on an import: how far it got, or what it imported. */
export function jobSummary(job: ImportJob, t: Translate): string {
  if (job.state === 'succeeded' && job.report) {
    const entries = Object.values(job.report.counts).reduce((sum, count) => sum + count, 0);
    return t('import.summary.done', { entries, collections: Object.keys(job.report.counts).length });
  }
  return t('import.summary.progress', { phase: job.progress.phase, processed: job.progress.processed, total: job.progress.total });
}
