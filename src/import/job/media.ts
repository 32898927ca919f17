import type { ImportRun } from './run-state.ts';
import type { ImportProgress, ImportReport } from '../schemas.ts';
import type { AttachmentRef } from '../sources/types.ts';
import * as store from '../store.ts';
import { importAttachments } from '../media/import-media.ts';

/** What the media phase adds to an import's report. */
export type MediaPhaseReport = Pick<ImportReport['media'], 'downloads' | 'pending'>;

/**
 * The media phase of an import with `includeMedia` (import.md §2 rule 6; decisions/0027): the
 * attachments this source recorded, downloaded by the code `POST /import/legacy/media` runs (a few
 * at a time, retried, deduplicated by content, within the quota, each one a checkpoint, so a resumed
 * job fetches only what is missing), then the imported entries pointed at the new URLs. Each file's
 * line becomes the job's progress; what failed or the quota left is pending in the report.
 */
export async function importJobMedia(run: ImportRun, report: (progress: ImportProgress) => Promise<void>, signal: AbortSignal): Promise<MediaPhaseReport> {
  const attachments = (await store.attachmentsOfSource(run.ctx.db, run.sourceKey)).map((row) => ({ id: row.source_id, url: (JSON.parse(row.data!) as AttachmentRef).url }));
  await report({ phase: 'media', processed: 0, total: attachments.length });
  const pending: { id: string; url: string }[] = [];
  // Lines come from several downloads at once; their progress is written one after another, in order.
  let written = Promise.resolve();
  const result = await importAttachments(
    run.ctx,
    attachments,
    (line) => {
      if (line.status === 'failed' || line.status === 'skipped') pending.push({ id: line.id, url: line.url });
      written = written.then(() => report({ phase: 'media', processed: line.current, total: line.total, file: line }));
      return written;
    },
    { signal, jobId: run.jobId },
  );
  const { type: _type, urlMap: _urlMap, ...downloads } = result;
  return pending.length > 0 ? { downloads, pending } : { downloads };
}
