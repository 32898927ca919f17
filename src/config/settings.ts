import { z } from 'zod';
import { booleanText, byteSize, databaseLocation, duration, httpUrl, integer, list, mimePattern, origin, proxyHops } from './values.ts';

/**
 * Every setting Folio reads, once: its environment variable (the key), its `folio serve` flag, its
 * default as the README and `--help` show it, a one-line description, and its parser. loadConfig reads
 * the variables and flags from here, `folio serve` declares its options from here, and
 * test/config-docs.test.ts holds the README's configuration table and `--help` to it
 * (docs/decisions/0040-settings-table.md).
 */
export interface SettingBase<Parser extends z.ZodType = z.ZodType> {
  /** For `folio serve --help`; the README's table says more. */
  description: string;
  /** Gets the text of the variable or flag (or `default`): undefined only when a setting has no default. */
  parse: Parser;
  /** An empty value is a choice (no plugins), not the variable left unset. */
  emptyIsAValue?: true;
}

/** A flag as commander declares it, or why the setting is read only from the environment. */
type FlagDeclaration = { flag: `--${string} <${string}>` } | { envOnly: string };

/** A value typed as a person would type it and parsed like theirs, or what happens when none is set. */
type DefaultDeclaration = { default: string } | { whenUnset: string };

export type Setting<Parser extends z.ZodType = z.ZodType> = SettingBase<Parser> & FlagDeclaration & DefaultDeclaration;

// Each declaration keeps its own types: its parser's output is RawConfig's, its flag a literal.
const setting = <Declaration extends Setting>(declaration: Declaration) => declaration;

// A flag's value is visible to every user of the machine (`ps`) and stays in shell history.
const secretOnlyInEnvironment = 'a secret: a flag would show it in the process list and the shell history';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const logFormats = ['pretty', 'json'] as const;

/** Images, audio, video, PDF and common office documents and text (issue 9's default). */
export const defaultAllowedTypes = [
  'image/*',
  'audio/*',
  'video/*',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
];

/** In the README's order, which is also the order of `--help` and of the problems a ConfigError lists. */
export const settings = {
  PORT: setting({ flag: '--port <port>', default: '3000', description: 'port to listen on, 0 for any free one', parse: integer(0, 65535) }),
  HOST: setting({ flag: '--host <host>', default: '127.0.0.1', description: 'address to bind; 0.0.0.0 accepts outside connections', parse: z.string().min(1, 'must not be empty') }),
  PUBLIC_URL: setting({ flag: '--public-url <url>', whenUnset: "the request's origin", description: 'public base URL used in links, OAuth metadata and passkeys', parse: httpUrl.optional() }),
  DATABASE_URL: setting({ flag: '--database-url <url>', default: 'file:./data/folio.db', description: 'postgres:// URL, file: URL or SQLite path', parse: databaseLocation }),
  DATABASE_POOL_SIZE: setting({ flag: '--database-pool-size <n>', default: '10', description: 'PostgreSQL connections per process, 1-1000', parse: integer(1, 1000) }),
  MEDIA_DIR: setting({ flag: '--media-dir <dir>', default: './data/media', description: 'where local media files are kept', parse: z.string().min(1, 'must not be empty') }),
  MEDIA_STORAGE: setting({ flag: '--media-storage <kind>', default: 'local', description: 'local (files under MEDIA_DIR) or s3', parse: z.enum(['local', 's3'], 'must be local or s3') }),
  MEDIA_UPLOAD_LIMIT: setting({ flag: '--media-upload-limit <size>', default: '100mb', description: 'largest file an upload may carry, such as 100mb', parse: byteSize }),
  MEDIA_ALLOWED_TYPES: setting({
    flag: '--media-allowed-types <types>',
    whenUnset: 'images, audio, video, PDF, plain text, CSV, Office and OpenDocument files',
    description: 'comma-separated MIME types files may have, type/* allowed',
    parse: z
      .string()
      .optional()
      .transform((value) => (value === undefined ? defaultAllowedTypes : value.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean)))
      .pipe(z.array(mimePattern).min(1, 'must name at least one type')),
  }),
  S3_BUCKET: setting({ flag: '--s3-bucket <name>', whenUnset: 'none', description: 'the bucket media is kept in, with MEDIA_STORAGE=s3', parse: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name').optional() }),
  S3_REGION: setting({ flag: '--s3-region <region>', default: 'us-east-1', description: "the bucket's region", parse: z.string().min(1) }),
  S3_ENDPOINT: setting({ flag: '--s3-endpoint <url>', whenUnset: 'AWS', description: "an S3-compatible service's endpoint", parse: httpUrl.optional() }),
  S3_FORCE_PATH_STYLE: setting({ flag: '--s3-force-path-style <bool>', default: 'false', description: 'address the bucket in the path, not the host name', parse: booleanText }),
  S3_PUBLIC_URL: setting({ flag: '--s3-public-url <url>', whenUnset: 'none', description: "public base URL of the bucket's objects, used in media URLs", parse: httpUrl.optional() }),
  S3_SERVE: setting({ flag: '--s3-serve <mode>', default: 'stream', description: 'stream (Folio sends files) or redirect (to a presigned GET)', parse: z.enum(['stream', 'redirect'], 'must be stream or redirect') }),
  LOG_LEVEL: setting({ flag: '--log-level <level>', default: 'info', description: logLevels.join(', '), parse: z.enum(logLevels, `must be one of ${logLevels.join(', ')}`) }),
  LOG_FORMAT: setting({ flag: '--log-format <format>', whenUnset: 'pretty on a terminal, else json', description: 'pretty (readable lines) or json', parse: z.enum(logFormats, `must be one of ${logFormats.join(', ')}`).optional() }),
  CORS_ORIGINS: setting({ flag: '--cors-origins <origins>', whenUnset: 'none', emptyIsAValue: true, description: 'comma-separated origins allowed to call the API from browsers', parse: list.pipe(z.array(origin)) }),
  BODY_LIMIT: setting({ flag: '--body-limit <size>', default: '10mb', description: 'largest JSON body accepted, such as 10mb', parse: byteSize }),
  BODY_MEMORY_LIMIT: setting({ flag: '--body-memory-limit <size>', whenUnset: '64mb, or BODY_LIMIT if larger', description: 'bytes JSON bodies being read may hold at once, across all requests', parse: byteSize.optional() }),
  SCHEDULER_INTERVAL_MS: setting({ flag: '--scheduler-interval-ms <ms>', default: '1000', description: 'how often due background jobs are looked for, 100-60000', parse: integer(100, 60_000) }),
  JOB_CONCURRENCY: setting({ flag: '--job-concurrency <n>', default: '4', description: 'how many background jobs run at once, 1-100', parse: integer(1, 100) }),
  JOB_LEASE_MS: setting({ flag: '--job-lease-ms <ms>', default: '30000', description: "how long a job's claim holds without renewal, 1000-3600000", parse: integer(1000, 3_600_000) }),
  IMPORT_UPLOAD_LIMIT: setting({ flag: '--import-upload-limit <size>', default: '1gb', description: 'largest WordPress export file accepted, such as 1gb', parse: byteSize }),
  IMPORT_MEDIA_CONCURRENCY: setting({ flag: '--import-media-concurrency <n>', default: '4', description: 'downloads a media import runs at once, 1-32', parse: integer(1, 32) }),
  IMPORT_MEDIA_TIMEOUT_MS: setting({ flag: '--import-media-timeout-ms <ms>', default: '60000', description: 'time limit of one media download, 100-3600000', parse: integer(100, 3_600_000) }),
  IMPORT_MEDIA_RETRIES: setting({ flag: '--import-media-retries <n>', default: '2', description: 'tries of a download after a failure, 0-10', parse: integer(0, 10) }),
  IMPORT_MEDIA_RETRY_DELAY_MS: setting({ flag: '--import-media-retry-delay-ms <ms>', default: '1000', description: 'pause before the first download retry, doubled each time, 0-60000', parse: integer(0, 60_000) }),
  MEDIA_STORAGE_QUOTA: setting({ flag: '--media-storage-quota <size>', whenUnset: 'none', description: 'bytes the media library may hold, such as 5gb', parse: byteSize.optional() }),
  WPCOM_API_URL: setting({ flag: '--wpcom-api-url <url>', default: 'https://public-api.wordpress.com', description: "WordPress.com's API, for the legacy-hosted import", parse: httpUrl }),
  WPCOM_CLIENT_ID: setting({
    flag: '--wpcom-client-id <id>',
    whenUnset: 'none',
    description: "this deployment's WordPress.com application, with WPCOM_CLIENT_SECRET",
    parse: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be the client ID WordPress.com gave the application').optional(),
  }),
  WPCOM_CLIENT_SECRET: setting({ envOnly: secretOnlyInEnvironment, whenUnset: 'none', description: "the WordPress.com application's client secret", parse: z.string().min(1).optional() }),
  IMPORT_API_TIMEOUT_MS: setting({ flag: '--import-api-timeout-ms <ms>', default: '30000', description: 'time limit of one WordPress.com API request, 100-600000', parse: integer(100, 600_000) }),
  IMPORT_API_RETRIES: setting({ flag: '--import-api-retries <n>', default: '3', description: 'tries of an API request after a failure, 0-10', parse: integer(0, 10) }),
  IMPORT_API_RETRY_DELAY_MS: setting({ flag: '--import-api-retry-delay-ms <ms>', default: '1000', description: 'pause before the first API retry, doubled each time, 0-60000', parse: integer(0, 60_000) }),
  IMPORT_SOURCES: setting({ flag: '--import-sources <modules>', whenUnset: 'none', description: 'comma-separated modules of extra import sources', parse: list }),
  TRUST_PROXY: setting({ flag: '--trust-proxy <n>', default: 'false', description: 'false, true or how many reverse proxies forward requests', parse: proxyHops }),
  OUTGOING_ALLOW_PRIVATE_ADDRESSES: setting({
    flag: '--outgoing-allow-private-addresses <bool>',
    default: 'false',
    description: 'let requests to URLs others name reach loopback and private addresses',
    parse: booleanText,
  }),
  SMTP_URL: setting({ flag: '--smtp-url <url>', whenUnset: 'none', description: 'smtp:// or smtps:// URL of the server that sends sign-in mails', parse: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional() }),
  SMTP_HOST: setting({ flag: '--smtp-host <host>', whenUnset: 'none', description: 'the mail server, instead of SMTP_URL', parse: z.string().min(1).optional() }),
  SMTP_PORT: setting({ flag: '--smtp-port <port>', default: '587', description: "the mail server's port, with SMTP_HOST; 465 is TLS from the start", parse: integer(1, 65535) }),
  SMTP_USER: setting({ flag: '--smtp-user <user>', whenUnset: 'none', description: 'the user to sign in to the mail server as, with SMTP_HOST', parse: z.string().min(1).optional() }),
  SMTP_PASSWORD: setting({ envOnly: secretOnlyInEnvironment, whenUnset: 'none', description: "SMTP_USER's password", parse: z.string().min(1).optional() }),
  SMTP_FROM: setting({ flag: '--smtp-from <address>', whenUnset: "Folio <folio@HOST>, HOST being PUBLIC_URL's host or localhost", description: 'From address of the mails', parse: z.string().min(3).optional() }),
  SESSION_IDLE_TIMEOUT: setting({ flag: '--session-idle-timeout <duration>', default: '24h', description: 'a browser session ends after this long unused, such as 12h', parse: duration }),
  SESSION_MAX_AGE: setting({ flag: '--session-max-age <duration>', default: '14d', description: 'and this long after sign-in in any case', parse: duration }),
  COMMENT_CLIENT_LIMIT: setting({ flag: '--comment-client-limit <n>', default: '10', description: 'comments one client address may post per COMMENT_LIMIT_WINDOW, 1-1000000', parse: integer(1, 1_000_000) }),
  COMMENT_ENTRY_LIMIT: setting({ flag: '--comment-entry-limit <n>', default: '60', description: 'comments one entry may take per COMMENT_LIMIT_WINDOW, 1-1000000', parse: integer(1, 1_000_000) }),
  COMMENT_LIMIT_WINDOW: setting({ flag: '--comment-limit-window <duration>', default: '10m', description: 'the window of the comment limits, such as 10m (at most 24h)', parse: duration.pipe(z.number().max(86_400_000, 'must be at most 24h')) }),
  PLUGINS: setting({ flag: '--plugins <plugins>', default: 'webhooks,audit-log', emptyIsAValue: true, description: 'comma-separated plugins to load, in order; empty for none', parse: list }),
  PLUGIN_HOOK_TIMEOUT_MS: setting({ flag: '--plugin-hook-timeout-ms <ms>', default: '2000', description: 'how long a content:beforeSave hook may take, 10-60000', parse: integer(10, 60_000) }),
  WEBHOOK_TIMEOUT_MS: setting({ flag: '--webhook-timeout-ms <ms>', default: '10000', description: 'how long one webhook attempt may take, 100-120000', parse: integer(100, 120_000) }),
};

export type Variable = keyof typeof settings;
export type LogLevel = (typeof logLevels)[number];
export type LogFormat = (typeof logFormats)[number];

/** Every setting's value once parsed, by variable. */
export type RawConfig = { [V in Variable]: z.output<(typeof settings)[V]['parse']> };

export const settingEntries = Object.entries(settings) as [Variable, Setting][];

type CamelCase<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Name;

/** The key commander gives a flag's value, as a type: `s3ForcePathStyle` for `--s3-force-path-style <bool>`. */
export type FlagKey = { [V in Variable]: (typeof settings)[V] extends { flag: `--${infer Name} <${string}>` } ? CamelCase<Name> : never }[Variable];

/** `--port` of `--port <port>`; undefined for a setting read only from the environment. */
export function flagName(setting: Setting): string | undefined {
  return 'flag' in setting ? setting.flag.split(' ')[0] : undefined;
}

/** The key commander gives a flag's value (`--s3-force-path-style` → `s3ForcePathStyle`). */
export function flagKey(flag: string): FlagKey {
  return flag.replace(/^--/, '').replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) as FlagKey;
}

/** The default as the README and `--help` show it. */
export function shownDefault(setting: Setting): string {
  return 'default' in setting ? setting.default : setting.whenUnset;
}
