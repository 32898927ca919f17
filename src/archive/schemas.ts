import { z } from 'zod';

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
