import { z } from 'zod';

/**
 * The site archive's format (docs/decisions/0061): a gzip-compressed tar whose first member is
 * `manifest.json`, then one NDJSON member per table (`records/<table>.ndjson`), the encrypted
 * password-equivalents when asked for, the media files (`media/<storage key>`), and last
 * `summary.json`: each member's rows and SHA-256, so a restore tells a whole archive from a cut or
 * changed one before it writes anything.
 */

/** The version this Folio writes and the newest it reads. */
export const archiveFormatVersion = 1;

export const manifestMember = 'manifest.json';
export const summaryMember = 'summary.json';
export const secretsMember = 'secrets.ndjson.enc';
export const recordsPrefix = 'records/';
export const mediaPrefix = 'media/';

export const recordsMember = (table: string) => `${recordsPrefix}${table}.ndjson`;
export const mediaMember = (key: string) => `${mediaPrefix}${key}`;

/** How the secrets member is encrypted: AES-256-GCM under a key scrypt derives from the passphrase. */
export const Encryption = z.object({
  cipher: z.literal('aes-256-gcm'),
  kdf: z.literal('scrypt'),
  /** Base64. */
  salt: z.string(),
  iv: z.string(),
  N: z.number().int().positive(),
  r: z.number().int().positive(),
  p: z.number().int().positive(),
});
export type Encryption = z.infer<typeof Encryption>;

/**
 * The first member. Only `format` and `formatVersion` are read before deciding whether the rest can
 * be: a newer version may change anything else.
 */
export const ManifestHead = z.object({ format: z.literal('folio-site-archive'), formatVersion: z.number().int().positive() });

export const Manifest = ManifestHead.extend({
  formatVersion: z.literal(archiveFormatVersion),
  folioVersion: z.string(),
  createdAt: z.string(),
  source: z.object({ database: z.enum(['sqlite', 'postgres']), storage: z.enum(['local', 's3']), migration: z.string() }),
  /** Password-equivalents: left out (`false`) or in the encrypted member. */
  secrets: z.union([z.literal(false), z.literal('encrypted')]),
  encryption: Encryption.optional(),
  /** The entry tables' names, so a restore knows them before it reaches their members. */
  entryTables: z.array(z.string()),
});
export type Manifest = z.infer<typeof Manifest>;

const SummaryMember = z.object({ name: z.string(), size: z.number().int().nonnegative(), sha256: z.string(), rows: z.number().int().nonnegative().optional() });
export type SummaryMember = z.infer<typeof SummaryMember>;

/** The last member: every member before it (the manifest included) in order. */
export const Summary = z.object({
  members: z.array(SummaryMember),
  /** Media files the snapshot's rows name that storage no longer had when they were copied. */
  missingMedia: z.array(z.string()),
});
export type Summary = z.infer<typeof Summary>;
