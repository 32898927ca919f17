import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { hashingTap } from '../backup/files.ts';
import { defineJob, type JobKind } from '../jobs/types.ts';
import { writeSiteArchive, type ExportProgress } from './export.ts';

/**
 * An export made as a job (docs/decisions/0063): the archive written to storage under its own key
 * while the job's progress says how far it is, then kept for `exportKeptMs` for the admin to
 * download, and removed by housekeeping after that. Any server process may run it; a process that
 * dies mid-way leaves nothing at the key (storage writes are whole or nothing), and the retry starts
 * the archive again from a new snapshot.
 */

/** How long a finished export stays downloadable. */
export const exportKeptMs = 24 * 60 * 60_000;

/** How often the progress is stored while the archive is written; the lease is renewed with it. */
const progressEveryMs = 1000;

export const exportPayload = z.object({
  /** Where the archive goes in storage: chosen when the job is queued, the same for every attempt. */
  key: z.string(),
  filename: z.string(),
});

export type ExportPayload = z.infer<typeof exportPayload>;

export const siteExportKind: JobKind<ExportPayload> = { kind: 'site.export', payload: exportPayload, maxAttempts: 3 };

/** What the job's progress holds: what is in the archive so far, and its bytes written. */
export interface ExportJobProgress extends ExportProgress {
  bytes: number;
}

/** What a finished export job holds. */
export interface ExportJobResult {
  key: string;
  filename: string;
  size: number;
  sha256: string;
  tables: number;
  rows: number;
  mediaFiles: number;
  /** Media files the rows name that storage did not have (left out of the archive). */
  missingMedia: number;
  expiresAt: string;
}

export const siteExportJob = defineJob({
  ...siteExportKind,
  async run(ctx, job): Promise<ExportJobResult> {
    const { key, filename } = job.payload;
    const now = ctx.clock.now();
    const sqlitePath = ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : undefined;
    const output = new PassThrough();
    const tap = hashingTap();
    // The stream into storage fails with the archive, so storage keeps nothing of a failed attempt.
    const stopped = () => output.destroy(job.signal.reason as Error);
    job.signal.addEventListener('abort', stopped);
    let latest: ExportJobProgress = { phase: 'records', tables: 0, rows: 0, mediaFiles: 0, bytes: 0 };
    let storedAt = now.getTime();
    let storing: Promise<void> = Promise.resolve();
    const onProgress = (progress: ExportProgress) => {
      latest = { ...progress, bytes: tap.passed() };
      const at = ctx.clock.now().getTime();
      if (at - storedAt < progressEveryMs) return;
      storedAt = at;
      // One write at a time; a lost lease aborts the run through `job.signal`.
      storing = storing.then(() => job.progress(latest)).catch(() => undefined);
    };
    const written = writeSiteArchive({ db: ctx.db, sqlitePath, storage: ctx.storage }, output, { now, onProgress });
    const carried = pipeline(output, tap);
    const stored = ctx.storage.write(key, tap, { contentType: 'application/gzip' });
    const all = Promise.all([written, carried, stored]);
    // The first failure ends the others (the snapshot closed, nothing kept at the key) before the job fails.
    all.catch((error: unknown) => output.destroy(error as Error));
    try {
      await Promise.allSettled([written, carried, stored]);
      const [totals] = await all;
      await storing;
      const archive = tap.digest();
      await job.progress({ ...latest, bytes: archive.size });
      return {
        key,
        filename,
        size: archive.size,
        sha256: archive.sha256,
        tables: totals.tables,
        rows: totals.rows,
        mediaFiles: totals.mediaFiles,
        missingMedia: totals.missingMedia.length,
        expiresAt: new Date(ctx.clock.now().getTime() + exportKeptMs).toISOString(),
      };
    } finally {
      job.signal.removeEventListener('abort', stopped);
    }
  },
});
