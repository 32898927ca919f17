import { randomBytes } from 'node:crypto';
import { AppError, notFound } from '../core/errors.ts';
import { defineOperation } from '../core/operation.ts';
import type { ByteSource } from '../core/results.ts';
import type { Db } from '../db/connection.ts';
import { apiBasePath } from '../http/paths.ts';
import { deleteJobs, enqueueJob, findJob, listFinishedJobs, listJobs } from '../jobs/store.ts';
import type { Job } from '../jobs/types.ts';
import { fileSource } from '../media/serve.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import type { Clock } from '../core/clock.ts';
import { exportKeptMs, siteExportKind, type ExportJobProgress, type ExportJobResult, type ExportPayload } from './export-job.ts';
import { adminOnly, archiveFilename } from './operations.ts';
import type { SiteExportSchema } from './schemas.ts';
import type { z } from 'zod';

/** The site's exports made as jobs, for large sites (docs/decisions/0063): queued, followed, downloaded, removed. */

type SiteExportView = z.output<typeof SiteExportSchema>;

/** Where an export is followed, and where its archive is downloaded (relative to the API's base). */
export const exportPath = (id: string) => `/site/exports/${id}`;
export const archivePath = (id: string) => `${exportPath(id)}/archive`;

/** `POST /site/exports`: queues an export; answered at once (202) with where to follow it. */
export const startSiteExport = defineOperation({
  name: 'site.exports.start',
  access: adminOnly,
  async run(ctx): Promise<SiteExportView> {
    const now = ctx.clock.now();
    const payload: ExportPayload = { key: `exports/${randomBytes(16).toString('base64url')}.tar.gz`, filename: archiveFilename(now) };
    const id = await enqueueJob(ctx.db, siteExportKind, payload, { now: now.toISOString(), createdBy: ctx.actor?.userId ?? null });
    return viewOf(ctx, (await findJob(ctx.db, id))!);
  },
});

/** `GET /site/exports`: the newest exports, newest first. */
export const listSiteExports = defineOperation({
  name: 'site.exports.list',
  access: adminOnly,
  async run(ctx, input: { limit: number }): Promise<{ items: SiteExportView[] }> {
    const jobs = await listJobs(ctx.db, siteExportKind.kind, input.limit);
    return { items: jobs.map((job) => viewOf(ctx, job)) };
  },
});

/** `GET /site/exports/:id`: its state, progress and, once made, the archive to download. */
export const getSiteExport = defineOperation({
  name: 'site.exports.get',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<{ item: SiteExportView }> {
    return { item: viewOf(ctx, await requireExport(ctx.db, input.id)) };
  },
});

/** `GET /site/exports/:id/archive`: the archive made, with Range and a strong ETag (its SHA-256). */
export const downloadSiteExport = defineOperation({
  name: 'site.exports.download',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<ByteSource> {
    const job = await requireExport(ctx.db, input.id);
    const view = viewOf(ctx, job);
    if (view.state === 'expired') throw notFound(`The archive of export ${job.id} (kept ${exportKeptMs / 3_600_000} hours, it expired at ${resultOf(job).expiresAt})`);
    if (view.state !== 'succeeded') throw new AppError('CONFLICT', `Export ${job.id} is ${view.state}: its archive can be downloaded once it has succeeded`);
    const result = resultOf(job);
    return fileSource(ctx, result.key, { contentType: 'application/gzip', size: result.size, etag: result.sha256, filename: result.filename });
  },
});

/** `DELETE /site/exports/:id`: the export and its archive, at once; one still running is refused. */
export const deleteSiteExport = defineOperation({
  name: 'site.exports.delete',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<{ success: true }> {
    const job = await requireExport(ctx.db, input.id);
    if ((await deleteJobs(ctx.db, [job.id])) === 0) throw new AppError('CONFLICT', `Export ${job.id} is running: it can be deleted once it has finished`);
    await ctx.storage.delete([(job.payload as ExportPayload).key]);
    return { success: true };
  },
});

/**
 * Housekeeping's part: exports past their keeping, and failed ones as old, are removed with their
 * archives. The job row goes first, so an archive is never served after its file was removed.
 */
export async function removeExpiredExports(ctx: { db: Db; clock: Clock; storage: MediaStorage }): Promise<void> {
  const now = ctx.clock.now().getTime();
  const expired = (await listFinishedJobs(ctx.db, siteExportKind.kind)).filter((job) => keptUntil(job) <= now);
  if (expired.length === 0) return;
  await deleteJobs(ctx.db, expired.map((job) => job.id));
  await ctx.storage.delete(expired.map((job) => (job.payload as ExportPayload).key));
}

async function requireExport(db: Db, id: string): Promise<Job> {
  const job = await findJob(db, id);
  if (!job || job.kind !== siteExportKind.kind) throw notFound(`Export ${id}`);
  return job;
}

const resultOf = (job: Job) => job.result as ExportJobResult;

/** When a finished export's row and file go: its archive's expiry, or a day after a failure. */
function keptUntil(job: Job): number {
  return job.state === 'succeeded' ? Date.parse(resultOf(job).expiresAt) : Date.parse(job.finishedAt ?? job.updatedAt) + exportKeptMs;
}

function viewOf(ctx: { clock: Clock }, job: Job): SiteExportView {
  const expired = job.state === 'succeeded' && keptUntil(job) <= ctx.clock.now().getTime();
  const progress = (job.progress as ExportJobProgress | null) ?? { phase: 'queued' as const, tables: 0, rows: 0, mediaFiles: 0, bytes: 0 };
  const result = job.state === 'succeeded' && !expired ? resultOf(job) : undefined;
  return {
    id: job.id,
    state: expired ? 'expired' : job.state === 'cancelled' ? 'failed' : job.state,
    progress: { ...progress, phase: job.state === 'succeeded' ? 'done' : progress.phase },
    attempts: job.attempts,
    lastError: job.lastError,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    archive: result
      ? {
          url: `${apiBasePath}${archivePath(job.id)}`,
          filename: result.filename,
          size: result.size,
          sha256: result.sha256,
          tables: result.tables,
          rows: result.rows,
          mediaFiles: result.mediaFiles,
          missingMedia: result.missingMedia,
          expiresAt: result.expiresAt,
        }
      : null,
  };
}
