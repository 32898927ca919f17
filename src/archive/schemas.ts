import { z } from 'zod';
import { queryInteger } from '../core/pagination.ts';

/** The site archive's endpoints (docs/decisions/0061). */

export const ImportSiteQuery = z.object({
  merge: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe("true: restore beside what the site has, keeping its records and reporting each of the archive's that conflicts"),
});

export const ImportSiteHeaders = z.object({
  'folio-archive-passphrase': z.string().min(8).max(1024).optional().describe('The passphrase of an archive exported with --full: its sign-in secrets are restored too'),
});

export const RestoreResultSchema = z
  .object({
    resumed: z.boolean().describe('An interrupted restore of this same archive was continued'),
    tables: z.number().int(),
    rows: z.number().int().describe('Rows inserted'),
    mediaFiles: z.number().int(),
    conflicts: z.array(z.object({ table: z.string(), key: z.string() })).describe('With merge: records the site had already, kept as they were (the first 1,000)'),
    conflictCount: z.number().int(),
    notes: z.array(z.string()),
  })
  .meta({ id: 'SiteRestoreResult' });

/** An export made as a job (docs/decisions/0063). */
export const ExportParams = z.object({ id: z.string().min(1).max(64).describe('Export id') });
export const ExportListQuery = z.strictObject({ limit: queryInteger(1, 50, 10).describe('How many, 1-50') });

export const SiteExportSchema = z
  .object({
    id: z.string(),
    state: z.enum(['queued', 'running', 'succeeded', 'failed', 'expired']).describe('expired: finished, but its archive is no longer kept'),
    progress: z
      .object({
        phase: z.enum(['queued', 'records', 'media', 'done']),
        tables: z.number().int().describe('Tables written so far'),
        rows: z.number().int(),
        mediaFiles: z.number().int(),
        bytes: z.number().int().describe('Bytes of archive written so far'),
      })
      .describe('Stored about once a second while it runs'),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    archive: z
      .object({
        url: z.string().describe('Where to download it (GET, with the same credentials; Range requests are served)'),
        filename: z.string(),
        size: z.number().int(),
        sha256: z.string(),
        tables: z.number().int(),
        rows: z.number().int(),
        mediaFiles: z.number().int(),
        missingMedia: z.number().int().describe('Media files the records name that storage did not have'),
        expiresAt: z.string().describe('When it is removed: 24 hours after it was made'),
      })
      .nullable()
      .describe('Once it has succeeded, until it expires'),
  })
  .meta({ id: 'SiteExport' });

export const SiteExportResponse = z.object({ item: SiteExportSchema });
export const SiteExportListResponse = z.object({ items: z.array(SiteExportSchema) });
