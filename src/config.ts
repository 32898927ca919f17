import path from 'node:path';
import { z } from 'zod';

/**
 * Folio's whole configuration: environment variables, overridden by CLI flags, validated once before
 * anything listens or connects. An invalid value stops the process with the variable named.
 */
/** Where media bytes are kept (src/media/storage/). */
export type StorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible service's endpoint (MinIO, R2…); the AWS endpoint of the region when absent. */
      endpoint: string | undefined;
      forcePathStyle: boolean;
      /** Where the bucket's objects are public (a CDN, a public bucket): record URLs point there. */
      publicUrl: string | undefined;
      /** `stream`: Folio sends the bytes; `redirect`: Folio answers with a short-lived presigned GET. */
      serve: 'stream' | 'redirect';
    };

export interface MediaConfig {
  storage: StorageConfig;
  /** The largest file an upload may carry, in bytes. */
  uploadLimit: number;
  /** MIME types a stored file may have: exact types, or `type/*`. */
  allowedTypes: string[];
}

/** Where sign-in and invitation mails go out (nodemailer): an SMTP URL, or host and port with optional login. */
export interface SmtpConfig {
  transport: string | { host: string; port: number; secure: boolean; auth?: { user: string; pass: string } };
  /** The From address of every mail. */
  from: string;
}

export interface ImportConfig {
  uploadLimit: number;
  /** Module specifiers, each exporting an import source as `default` or `source` (src/import/sources/registry.ts). */
  sources: string[];
  /** Media downloads of an import (src/import/media/): how many at once, each one's time limit, tries after a failure. */
  media: { concurrency: number; timeoutMs: number; retries: number; retryDelayMs: number };
  /** The most bytes the media library may hold; an import that would pass it stops (import.md §7). Undefined: no quota. */
  mediaQuota: number | undefined;
  /** WordPress.com (the `legacy-hosted` source, src/import/hosted/): where its API is, this deployment's application, how requests are tried. */
  wpcom: WpcomConfig;
}

export interface WpcomConfig {
  /** The API's base: its REST API under `/rest/v1.1`, OAuth under `/oauth2` (tests name a loopback server). */
  apiUrl: string;
  /** The application registered with WordPress.com; both unset: connecting is not offered. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** One API request's time limit, and how often a timeout, 429 or 5xx is tried again after a pause doubled each time. */
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
}

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolSize: number };

export interface Config {
  port: number;
  host: string;
  publicUrl: string | undefined;
  database: DatabaseConfig;
  mediaDir: string;
  media: MediaConfig;
  logLevel: LogLevel;
  logFormat: LogFormat;
  corsOrigins: string[];
  bodyLimit: number;
  /** Bytes that JSON and form bodies being read may hold at once, across all requests (then 503). */
  bodyMemoryLimit: number;
  /** How often each process looks for background jobs that are due (scheduled publications among them). */
  schedulerIntervalMs: number;
  /** How many background jobs each process runs at once. */
  jobConcurrency: number;
  /** How long a job's claim holds without renewal: a crashed worker's job is taken over after it. */
  jobLeaseMs: number;
  /** Imports (src/import/): the largest export file accepted, and sources added to the built-in ones. */
  import: ImportConfig;
  /**
   * How many reverse proxies stand in front of Folio: 0 takes the client's address from the socket; n
   * takes the n-th address from the right of `X-Forwarded-For` (what the outermost trusted proxy saw).
   */
  trustProxy: number;
  /**
   * Whether requests Folio makes to URLs others name (webhooks, OAuth client documents, WordPress
   * sites) may reach loopback, private and link-local addresses: off, as request forgery could
   * otherwise reach inside the deployment's network (src/net/outgoing.ts).
   */
  outgoingAllowPrivate: boolean;
  /** Undefined: no mail is sent, and sign-in links are logged at warn instead (development). */
  smtp: SmtpConfig | undefined;
  /** A session ends after this long without a request… */
  sessionIdleMs: number;
  /** …and this long after sign-in, whatever its use. */
  sessionMaxAgeMs: number;
  /** Plugin modules to load at start, in order: a shipped plugin's id, a local file, or an npm package (decisions/0023). */
  plugins: string[];
  /** How long a `content:beforeSave` hook may take before the save goes on without it. */
  pluginHookTimeoutMs: number;
  webhooks: {
    /** How long one delivery attempt may take, connection and answer included. */
    timeoutMs: number;
  };
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];
const logFormats = ['pretty', 'json'] as const;
export type LogFormat = (typeof logFormats)[number];

/** The variables Folio reads, each with its CLI flag; the README's configuration table lists them. */
export const configVariables = {
  PORT: 'port',
  HOST: 'host',
  PUBLIC_URL: 'publicUrl',
  DATABASE_URL: 'databaseUrl',
  DATABASE_POOL_SIZE: 'databasePoolSize',
  MEDIA_DIR: 'mediaDir',
  MEDIA_STORAGE: 'mediaStorage',
  MEDIA_UPLOAD_LIMIT: 'mediaUploadLimit',
  MEDIA_ALLOWED_TYPES: 'mediaAllowedTypes',
  S3_BUCKET: 's3Bucket',
  S3_REGION: 's3Region',
  S3_ENDPOINT: 's3Endpoint',
  S3_FORCE_PATH_STYLE: 's3ForcePathStyle',
  S3_PUBLIC_URL: 's3PublicUrl',
  S3_SERVE: 's3Serve',
  LOG_LEVEL: 'logLevel',
  LOG_FORMAT: 'logFormat',
  CORS_ORIGINS: 'corsOrigins',
  BODY_LIMIT: 'bodyLimit',
  BODY_MEMORY_LIMIT: 'bodyMemoryLimit',
  SCHEDULER_INTERVAL_MS: 'schedulerIntervalMs',
  JOB_CONCURRENCY: 'jobConcurrency',
  JOB_LEASE_MS: 'jobLeaseMs',
  IMPORT_UPLOAD_LIMIT: 'importUploadLimit',
  IMPORT_SOURCES: 'importSources',
  IMPORT_MEDIA_CONCURRENCY: 'importMediaConcurrency',
  IMPORT_MEDIA_TIMEOUT_MS: 'importMediaTimeoutMs',
  IMPORT_MEDIA_RETRIES: 'importMediaRetries',
  IMPORT_MEDIA_RETRY_DELAY_MS: 'importMediaRetryDelayMs',
  MEDIA_STORAGE_QUOTA: 'mediaStorageQuota',
  WPCOM_API_URL: 'wpcomApiUrl',
  WPCOM_CLIENT_ID: 'wpcomClientId',
  WPCOM_CLIENT_SECRET: 'wpcomClientSecret',
  IMPORT_API_TIMEOUT_MS: 'importApiTimeoutMs',
  IMPORT_API_RETRIES: 'importApiRetries',
  IMPORT_API_RETRY_DELAY_MS: 'importApiRetryDelayMs',
  TRUST_PROXY: 'trustProxy',
  OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'outgoingAllowPrivateAddresses',
  SMTP_URL: 'smtpUrl',
  SMTP_HOST: 'smtpHost',
  SMTP_PORT: 'smtpPort',
  SMTP_USER: 'smtpUser',
  SMTP_PASSWORD: 'smtpPassword',
  SMTP_FROM: 'smtpFrom',
  SESSION_IDLE_TIMEOUT: 'sessionIdleTimeout',
  SESSION_MAX_AGE: 'sessionMaxAge',
  PLUGINS: 'plugins',
  PLUGIN_HOOK_TIMEOUT_MS: 'pluginHookTimeoutMs',
  WEBHOOK_TIMEOUT_MS: 'webhookTimeoutMs',
} as const;

type Variable = keyof typeof configVariables;
export type ConfigFlags = Partial<Record<(typeof configVariables)[Variable], string>>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''));

// Browsers send `Origin` without a trailing slash, so each entry is stored in exactly that form.
const origin = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '');
    } catch {
      return false;
    }
  }, 'must be a list of origins such as https://example.com (scheme, host and optional port, nothing else)')
  .transform((value) => new URL(value).origin);

const byteSizeUnits: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const byteSize = z
  .string()
  .regex(/^\d+\s*(b|kb|mb|gb)?$/i, 'must be a size such as 10485760 or 10mb')
  .transform((value) => {
    const [, amount, unit = ''] = /^(\d+)\s*([a-z]*)$/i.exec(value)!;
    return Number(amount) * byteSizeUnits[unit.toLowerCase()]!;
  })
  .pipe(z.number().min(1024, 'must be at least 1kb'));

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

const mimePattern = z
  .string()
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/, 'must be a list of MIME types such as image/*,application/pdf');

const booleanText = z.enum(['true', 'false', '1', '0'], 'must be true or false').transform((value) => value === 'true' || value === '1');

const durationUnitsMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const duration = z
  .string()
  .regex(/^\d{1,5}[mhd]$/, 'must be a duration such as 90m, 12h or 30d')
  .transform((value) => Number(value.slice(0, -1)) * durationUnitsMs[value.slice(-1) as keyof typeof durationUnitsMs])
  .pipe(z.number().min(60_000, 'must be at least 1m'));

const rawSchema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  PUBLIC_URL: httpUrl.optional(),
  DATABASE_URL: z
    .string()
    .default('file:./data/folio.db')
    .transform((value, ctx) => {
      const location = parseDatabaseUrl(value);
      if (typeof location === 'string') ctx.addIssue({ code: 'custom', message: location });
      return location as DatabaseLocation;
    }),
  DATABASE_POOL_SIZE: integer(1, 1000).default(10),
  MEDIA_DIR: z.string().min(1, 'must not be empty').default('./data/media'),
  MEDIA_STORAGE: z.enum(['local', 's3'], 'must be local or s3').default('local'),
  MEDIA_UPLOAD_LIMIT: byteSize.default(100 * 1024 * 1024),
  MEDIA_ALLOWED_TYPES: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? defaultAllowedTypes : value.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean)))
    .pipe(z.array(mimePattern).min(1, 'must name at least one type')),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name').optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_FORCE_PATH_STYLE: booleanText.default(false),
  S3_PUBLIC_URL: httpUrl.optional(),
  S3_SERVE: z.enum(['stream', 'redirect'], 'must be stream or redirect').default('stream'),
  LOG_LEVEL: z.enum(logLevels, `must be one of ${logLevels.join(', ')}`).default('info'),
  LOG_FORMAT: z.enum(logFormats, `must be one of ${logFormats.join(', ')}`).optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean))
    .pipe(z.array(origin)),
  BODY_LIMIT: byteSize.default(10 * 1024 * 1024),
  BODY_MEMORY_LIMIT: byteSize.optional(),
  SCHEDULER_INTERVAL_MS: integer(100, 60_000).default(1000),
  JOB_CONCURRENCY: integer(1, 100).default(4),
  JOB_LEASE_MS: integer(1000, 3_600_000).default(30_000),
  IMPORT_UPLOAD_LIMIT: byteSize.default(1024 * 1024 * 1024),
  IMPORT_SOURCES: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean)),
  IMPORT_MEDIA_CONCURRENCY: integer(1, 32).default(4),
  IMPORT_MEDIA_TIMEOUT_MS: integer(100, 3_600_000).default(60_000),
  IMPORT_MEDIA_RETRIES: integer(0, 10).default(2),
  IMPORT_MEDIA_RETRY_DELAY_MS: integer(0, 60_000).default(1000),
  MEDIA_STORAGE_QUOTA: byteSize.optional(),
  WPCOM_API_URL: httpUrl.default('https://public-api.wordpress.com'),
  WPCOM_CLIENT_ID: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be the client ID WordPress.com gave the application').optional(),
  WPCOM_CLIENT_SECRET: z.string().min(1).optional(),
  IMPORT_API_TIMEOUT_MS: integer(100, 600_000).default(30_000),
  IMPORT_API_RETRIES: integer(0, 10).default(3),
  IMPORT_API_RETRY_DELAY_MS: integer(0, 60_000).default(1000),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const hops = value === 'true' ? 1 : value === 'false' ? 0 : /^\d{1,2}$/.test(value) ? Number(value) : -1;
      if (hops < 0 || hops > 10) ctx.addIssue({ code: 'custom', message: 'must be false, true or the number of proxies in front of Folio (0-10)' });
      return hops;
    }),
  OUTGOING_ALLOW_PRIVATE_ADDRESSES: booleanText.default(false),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: integer(1, 65535).optional(),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  SMTP_FROM: z.string().min(3).optional(),
  SESSION_IDLE_TIMEOUT: duration.default(24 * 3_600_000),
  SESSION_MAX_AGE: duration.default(14 * 86_400_000),
  // The shipped plugins by default; an empty value loads none.
  PLUGINS: z
    .string()
    .default('webhooks,audit-log')
    .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean)),
  PLUGIN_HOOK_TIMEOUT_MS: integer(10, 60_000).default(2000),
  WEBHOOK_TIMEOUT_MS: integer(100, 120_000).default(10_000),
});

type DatabaseLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** The database a DATABASE_URL names, or what is wrong with it. */
function parseDatabaseUrl(value: string): DatabaseLocation | string {
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      return 'is not a valid postgres:// URL';
    }
    return { kind: 'postgres', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !value.startsWith('file:')) {
    return 'must be a postgres:// URL, a file: URL or a path to an SQLite file';
  }
  const filePath = value.replace(/^file:(\/\/)?/, '').replace(/^sqlite:/, '');
  if (filePath === '') return 'names no SQLite file';
  if (filePath === ':memory:') return { kind: 'sqlite', path: filePath };
  return { kind: 'sqlite', path: path.resolve(filePath) };
}

/**
 * Builds the config from an environment and flags (flags win); throws ConfigError naming every problem.
 * `logsToTerminal` (whether the log stream is a terminal) decides the log format when none is set.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: ConfigFlags = {}, logsToTerminal = process.stdout.isTTY === true): Config {
  const merged: Record<string, string | undefined> = {};
  for (const [variable, flag] of Object.entries(configVariables)) {
    const value = flags[flag] ?? env[variable];
    // An empty list is a choice for these two (no origins, no plugins), not a variable left unset.
    merged[variable] = value === '' && variable !== 'CORS_ORIGINS' && variable !== 'PLUGINS' ? undefined : value;
  }
  const parsed = rawSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? '');
        return `${variable}${variableFlagHint(variable)} ${issue.message} (got ${JSON.stringify(redactPassword(merged[variable]))})`;
      }),
    );
  }
  const raw = parsed.data;
  if (raw.BODY_MEMORY_LIMIT !== undefined && raw.BODY_MEMORY_LIMIT < raw.BODY_LIMIT) {
    throw new ConfigError([`BODY_MEMORY_LIMIT (--body-memory-limit) must be at least BODY_LIMIT (${raw.BODY_LIMIT} bytes), or no body at the limit could be read`]);
  }
  if (raw.MEDIA_STORAGE === 's3' && raw.S3_BUCKET === undefined) {
    throw new ConfigError(['S3_BUCKET (--s3-bucket) is required when MEDIA_STORAGE is s3']);
  }
  if (raw.SMTP_URL !== undefined && raw.SMTP_HOST !== undefined) {
    throw new ConfigError(['SMTP_URL (--smtp-url) and SMTP_HOST (--smtp-host) are two ways to say the same thing: set one']);
  }
  if ((raw.WPCOM_CLIENT_ID === undefined) !== (raw.WPCOM_CLIENT_SECRET === undefined)) {
    throw new ConfigError(['WPCOM_CLIENT_ID (--wpcom-client-id) and WPCOM_CLIENT_SECRET (--wpcom-client-secret) go together: set both, or neither']);
  }
  if (raw.SESSION_MAX_AGE < raw.SESSION_IDLE_TIMEOUT) {
    throw new ConfigError(['SESSION_MAX_AGE (--session-max-age) must be at least SESSION_IDLE_TIMEOUT (--session-idle-timeout)']);
  }
  const mediaDir = path.resolve(raw.MEDIA_DIR);
  const storage: StorageConfig =
    raw.MEDIA_STORAGE === 's3'
      ? {
          kind: 's3',
          bucket: raw.S3_BUCKET!,
          region: raw.S3_REGION,
          endpoint: raw.S3_ENDPOINT,
          forcePathStyle: raw.S3_FORCE_PATH_STYLE,
          publicUrl: raw.S3_PUBLIC_URL,
          serve: raw.S3_SERVE,
        }
      : { kind: 'local', dir: mediaDir };
  const database: DatabaseConfig = raw.DATABASE_URL.kind === 'postgres' ? { ...raw.DATABASE_URL, poolSize: raw.DATABASE_POOL_SIZE } : raw.DATABASE_URL;
  return {
    port: raw.PORT,
    host: raw.HOST,
    publicUrl: raw.PUBLIC_URL,
    database,
    mediaDir,
    media: { storage, uploadLimit: raw.MEDIA_UPLOAD_LIMIT, allowedTypes: raw.MEDIA_ALLOWED_TYPES },
    logLevel: raw.LOG_LEVEL,
    logFormat: raw.LOG_FORMAT ?? (logsToTerminal ? 'pretty' : 'json'),
    corsOrigins: raw.CORS_ORIGINS,
    bodyLimit: raw.BODY_LIMIT,
    // Room for several bodies at the limit at once, and never less than one.
    bodyMemoryLimit: raw.BODY_MEMORY_LIMIT ?? Math.max(64 * 1024 * 1024, raw.BODY_LIMIT),
    schedulerIntervalMs: raw.SCHEDULER_INTERVAL_MS,
    jobConcurrency: raw.JOB_CONCURRENCY,
    jobLeaseMs: raw.JOB_LEASE_MS,
    import: {
      uploadLimit: raw.IMPORT_UPLOAD_LIMIT,
      sources: raw.IMPORT_SOURCES,
      media: { concurrency: raw.IMPORT_MEDIA_CONCURRENCY, timeoutMs: raw.IMPORT_MEDIA_TIMEOUT_MS, retries: raw.IMPORT_MEDIA_RETRIES, retryDelayMs: raw.IMPORT_MEDIA_RETRY_DELAY_MS },
      mediaQuota: raw.MEDIA_STORAGE_QUOTA,
      wpcom: {
        apiUrl: raw.WPCOM_API_URL,
        clientId: raw.WPCOM_CLIENT_ID,
        clientSecret: raw.WPCOM_CLIENT_SECRET,
        timeoutMs: raw.IMPORT_API_TIMEOUT_MS,
        retries: raw.IMPORT_API_RETRIES,
        retryDelayMs: raw.IMPORT_API_RETRY_DELAY_MS,
      },
    },
    trustProxy: raw.TRUST_PROXY,
    outgoingAllowPrivate: raw.OUTGOING_ALLOW_PRIVATE_ADDRESSES,
    smtp: smtpConfig(raw),
    sessionIdleMs: raw.SESSION_IDLE_TIMEOUT,
    sessionMaxAgeMs: raw.SESSION_MAX_AGE,
    plugins: raw.PLUGINS,
    pluginHookTimeoutMs: raw.PLUGIN_HOOK_TIMEOUT_MS,
    webhooks: { timeoutMs: raw.WEBHOOK_TIMEOUT_MS },
  };
}

function smtpConfig(raw: z.output<typeof rawSchema>): SmtpConfig | undefined {
  const from = raw.SMTP_FROM ?? `Folio <folio@${raw.PUBLIC_URL === undefined ? 'localhost' : new URL(raw.PUBLIC_URL).hostname}>`;
  if (raw.SMTP_URL !== undefined) return { transport: raw.SMTP_URL, from };
  if (raw.SMTP_HOST === undefined) return undefined;
  const port = raw.SMTP_PORT ?? 587;
  const auth = raw.SMTP_USER === undefined ? undefined : { user: raw.SMTP_USER, pass: raw.SMTP_PASSWORD ?? '' };
  // Port 465 speaks TLS from the first byte; the others upgrade with STARTTLS when the server offers it.
  return { transport: { host: raw.SMTP_HOST, port, secure: port === 465, ...(auth ? { auth } : {}) }, from };
}

/** Folio's base URL outside a request (CLI, jobs): PUBLIC_URL, else where it listens. */
export function configuredBaseUrl(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${config.port}`;
}

/** A URL's password never reaches a terminal or a log through an error message. */
function redactPassword(value: string | undefined): string | undefined {
  return value?.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

function variableFlagHint(variable: string): string {
  const flag = configVariables[variable as Variable];
  return flag ? ` (--${flag.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)})` : '';
}
