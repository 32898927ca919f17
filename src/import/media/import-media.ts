import type { AuthorizedContext } from '../../core/operation.ts';
import { findMediaByIds, totalMediaBytes } from '../../media/store.ts';
import { toMediaItem } from '../../media/items.ts';
import { recordStoredFile } from '../../media/upload-event.ts';
import type { AttachmentRef } from '../sources/types.ts';
import * as store from '../store.ts';
import { DownloadFailure, downloadAttachment, filenameOf } from './download.ts';
import { mediaKind, mediaSourceKey } from './downloaded.ts';
import { rewriteImportedUrls, type RewriteResult } from './rewrite.ts';

/**
 * The media import (import.md §2 rule 6, §4 `media`; decisions/0027): each attachment's file
 * downloaded, a few at a time, and stored through the media library, so the same bytes are one item
 * however many posts use them or whether the library had them already. What became of each URL is
 * recorded (`import_items` kind `media`, keyed by the old URL): a run again, or a resumed import,
 * downloads only what is missing, and the URL map for the rewrite is read from there.
 */

export type FileStatus = 'downloaded' | 'reused' | 'existing' | 'failed' | 'skipped';

/** One line per file (import.md §4: NDJSON progress). */
export interface FileLine {
  type: 'file';
  current: number;
  total: number;
  id: string;
  url: string;
  filename: string;
  status: FileStatus;
  mediaId?: string;
  error?: string;
}

/** The last line: counts, what needs a person (failed downloads), the URL map, and why it stopped if it did. */
export interface MediaResult {
  type: 'result';
  total: number;
  downloaded: number;
  reused: number;
  existing: number;
  failed: number;
  skipped: number;
  /** Downloads that failed after their retries: for manual handling. */
  failures: { id: string; url: string; error: string }[];
  /** Old URL → the media item's URL. */
  urlMap: Record<string, string>;
  /** Set when the storage quota stopped the import (import.md §7); the files after it were not fetched. */
  stopped?: { reason: 'quota'; message: string; usage: { usedBytes: number; quotaBytes: number } };
  /** The imported entries' URLs rewritten with `urlMap` afterwards. */
  rewritten: RewriteResult;
}

export type MediaLine = FileLine | MediaResult;

interface Job {
  url: string;
  ids: string[];
  meta: Pick<AttachmentRef, 'title' | 'alt' | 'caption'>;
}

/** Runs the import, telling `onLine` each file's outcome as it comes; answers with the result. */
export async function importAttachments(
  ctx: AuthorizedContext,
  attachments: readonly { id: string; url: string }[],
  onLine: (line: FileLine) => void | Promise<void>,
  options: { signal?: AbortSignal; jobId?: string } = {},
): Promise<MediaResult> {
  const { signal } = options;
  const jobs = await plan(ctx, attachments);
  const result: MediaResult = { type: 'result', total: attachments.length, downloaded: 0, reused: 0, existing: 0, failed: 0, skipped: 0, failures: [], urlMap: {}, rewritten: { entries: 0, sections: 0, urls: 0 } };
  const quota = ctx.config.import.mediaQuota;
  let used = quota === undefined ? 0 : await totalMediaBytes(ctx.db);
  const previous = await store.importedIds(ctx.db, mediaSourceKey, mediaKind, jobs.map((job) => job.url));
  const previousItems = new Map((await findMediaByIds(ctx.db, [...previous.values()].map((row) => row.target_id))).map((row) => [row.id, row]));
  let current = 0;
  const recorded = new Map<string, Promise<unknown>>();

  const finish = async (job: Job, status: FileStatus, extra: { mediaId?: string; mediaUrl?: string; error?: string }) => {
    for (const id of job.ids) {
      current++;
      result[status]++;
      if (extra.mediaUrl) result.urlMap[job.url] = extra.mediaUrl;
      if (status === 'failed') result.failures.push({ id, url: job.url, error: extra.error! });
      const line: FileLine = { type: 'file', current, total: result.total, id, url: job.url, filename: filenameOf(job.url), status };
      if (extra.mediaId) line.mediaId = extra.mediaId;
      if (extra.error) line.error = extra.error;
      await onLine(line);
    }
  };

  const handle = async (job: Job) => {
    const checkpoint = previous.get(job.url);
    const earlier = previousItems.get(checkpoint?.target_id ?? '');
    if (earlier) return finish(job, earlierStatus(checkpoint!, options.jobId), { mediaId: earlier.id, mediaUrl: toMediaItem(ctx, earlier).url });
    if (result.stopped) return finish(job, 'skipped', { error: result.stopped.message });
    let file;
    try {
      file = await downloadAttachment(ctx, job.url, signal);
    } catch (error) {
      if (!(error instanceof DownloadFailure)) throw error;
      return finish(job, 'failed', { error: error.message });
    }
    if (quota !== undefined && used + file.size > quota) {
      await ctx.storage.delete([file.key]);
      result.stopped ??= {
        reason: 'quota',
        message: `The media storage quota of ${quota} bytes would be passed: ${used} bytes are used and ${filenameOf(job.url)} has ${file.size}`,
        usage: { usedBytes: used, quotaBytes: quota },
      };
      return finish(job, 'skipped', { error: result.stopped.message });
    }
    // The same bytes at two URLs, downloaded at once: recorded one after the other, so the second finds the first's item.
    const recording = (recorded.get(file.contentHash) ?? Promise.resolve()).then(() => recordStoredFile(ctx, file, { filename: filenameOf(job.url), ...job.meta }));
    recorded.set(file.contentHash, recording.catch(() => undefined));
    const { item, row, created } = await recording;
    if (created) used += row.size;
    const status = created ? 'downloaded' : 'reused';
    await store.insertAliases(ctx.db, [{ source_key: mediaSourceKey, kind: mediaKind, source_id: job.url, target_id: row.id, collection: null, data: JSON.stringify({ status }), job_id: options.jobId ?? '', created_at: ctx.clock.now().toISOString() }]);
    return finish(job, status, { mediaId: row.id, mediaUrl: item.url });
  };

  // A few workers take the next file as each finishes: at most `concurrency` downloads at once.
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      signal?.throwIfAborted();
      await handle(jobs[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.config.import.media.concurrency, jobs.length) }, worker));
  result.rewritten = await rewriteImportedUrls(ctx, result.urlMap, signal);
  return result;
}

/**
 * What a file downloaded before counts as: `existing` when another run fetched it; when an earlier
 * attempt of the same import job did (it was cut off and resumed), what it was then, so the job's
 * report is the same however often it was resumed.
 */
function earlierStatus(checkpoint: store.ImportItemRow, jobId: string | undefined): FileStatus {
  if (jobId === undefined || checkpoint.job_id !== jobId || checkpoint.data === null) return 'existing';
  return (JSON.parse(checkpoint.data) as { status: FileStatus }).status;
}

/** One download per distinct URL, with the title, alt text and caption its attachment record has. */
async function plan(ctx: AuthorizedContext, attachments: readonly { id: string; url: string }[]): Promise<Job[]> {
  const records = new Map((await store.attachmentsById(ctx.db, [...new Set(attachments.map((attachment) => attachment.id))])).map((record) => [`${record.sourceId}\n${record.url}`, record]));
  const jobs = new Map<string, Job>();
  for (const { id, url } of attachments) {
    const job = jobs.get(url);
    if (job) {
      job.ids.push(id);
      continue;
    }
    const record = records.get(`${id}\n${url}`);
    jobs.set(url, { url, ids: [id], meta: { ...(record?.title ? { title: record.title } : {}), ...(record?.alt ? { alt: record.alt } : {}), ...(record?.caption ? { caption: record.caption } : {}) } });
  }
  return [...jobs.values()];
}
