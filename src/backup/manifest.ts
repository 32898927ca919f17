import { z } from 'zod';

/**
 * `manifest.json`, written last into a backup directory (docs/decisions/0060): what the backup holds,
 * so `folio backup --verify` can tell a sound copy from a damaged one, and retention can tell a Folio
 * backup from anything else in the folder.
 */

export const manifestFile = 'manifest.json';
export const databaseFile = 'folio.db';
export const mediaFolder = 'media';

const MediaFile = z.object({
  key: z.string(),
  kind: z.enum(['original', 'derivative']),
  size: z.number().int().nonnegative(),
  sha256: z.string(),
});

export const Manifest = z.object({
  format: z.literal('folio-backup'),
  formatVersion: z.literal(1),
  folioVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    engine: z.literal('sqlite'),
    file: z.literal(databaseFile),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    /** The last migration applied: the schema's level. */
    migration: z.string(),
  }),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  media: z.object({
    storage: z.enum(['local', 's3']),
    /** The files copied into `media/`, by storage key. */
    files: z.array(MediaFile),
    /** Files the snapshot's rows name that were gone from storage when the backup copied the media. */
    missing: z.array(z.string()),
  }),
});

export type Manifest = z.infer<typeof Manifest>;
export type BackedUpMediaFile = z.infer<typeof MediaFile>;
