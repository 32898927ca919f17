import path from 'node:path';
import { z } from 'zod';
import { flagKey, flagName, settingEntries, settings, type FlagKey, type LogFormat, type LogLevel, type RawConfig, type Setting, type Variable } from './config/settings.ts';

/**
 * Folio's whole configuration: environment variables, overridden by CLI flags, validated once before
 * anything listens or connects. An invalid value stops the process with the variable named. Which
 * variables and flags there are, and how each is read, is the table in config/settings.ts; this file
 * puts the parsed values together and checks the ones that depend on each other.
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
  /** How many comments the public may post per window, per client address and per entry (src/comments/). */
  comments: { clientLimit: number; entryLimit: number; windowMs: number };
  /** Plugin modules to load at start, in order: a shipped plugin's id, a local file, or an npm package (decisions/0023). */
  plugins: string[];
  /** How long a `content:beforeSave` hook may take before the save goes on without it. */
  pluginHookTimeoutMs: number;
  webhooks: {
    /** How long one delivery attempt may take, connection and answer included. */
    timeoutMs: number;
  };
}

export type { LogFormat, LogLevel } from './config/settings.ts';
export { defaultAllowedTypes } from './config/settings.ts';

/** Each variable Folio reads, with the key of its `folio serve` flag's value (undefined: environment only). */
export const configVariables = Object.fromEntries(settingEntries.map(([variable, setting]) => [variable, keyOfFlag(setting)])) as Record<Variable, FlagKey | undefined>;

/** Flag values as commander gives them, by key (`databaseUrl` for `--database-url`). */
export type ConfigFlags = Partial<Record<FlagKey, string>>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const rawSchema = z.object(Object.fromEntries(settingEntries.map(([variable, setting]) => [variable, setting.parse])));

/**
 * Builds the config from an environment and flags (flags win); throws ConfigError naming every problem.
 * `logsToTerminal` (whether the log stream is a terminal) decides the log format when none is set.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: ConfigFlags = {}, logsToTerminal = process.stdout.isTTY === true): Config {
  const merged: Record<string, string | undefined> = {};
  for (const [variable, setting] of settingEntries) {
    const key = keyOfFlag(setting);
    const given = (key === undefined ? undefined : flags[key]) ?? env[variable];
    const value = given === '' && !setting.emptyIsAValue ? undefined : given;
    // The default goes through the same parser as a value typed in: what --help shows is what applies.
    merged[variable] = value ?? ('default' in setting ? setting.default : undefined);
  }
  const parsed = rawSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? '');
        return `${named(variable as Variable)} ${issue.message} (got ${JSON.stringify(redactPassword(merged[variable]))})`;
      }),
    );
  }
  const raw = parsed.data as RawConfig;
  if (raw.BODY_MEMORY_LIMIT !== undefined && raw.BODY_MEMORY_LIMIT < raw.BODY_LIMIT) {
    throw new ConfigError([`${named('BODY_MEMORY_LIMIT')} must be at least BODY_LIMIT (${raw.BODY_LIMIT} bytes), or no body at the limit could be read`]);
  }
  if (raw.MEDIA_STORAGE === 's3' && raw.S3_BUCKET === undefined) {
    throw new ConfigError([`${named('S3_BUCKET')} is required when MEDIA_STORAGE is s3`]);
  }
  if (raw.SMTP_URL !== undefined && raw.SMTP_HOST !== undefined) {
    throw new ConfigError([`${named('SMTP_URL')} and ${named('SMTP_HOST')} are two ways to say the same thing: set one`]);
  }
  if ((raw.WPCOM_CLIENT_ID === undefined) !== (raw.WPCOM_CLIENT_SECRET === undefined)) {
    throw new ConfigError([`${named('WPCOM_CLIENT_ID')} and ${named('WPCOM_CLIENT_SECRET')} go together: set both, or neither`]);
  }
  if (raw.SESSION_MAX_AGE < raw.SESSION_IDLE_TIMEOUT) {
    throw new ConfigError([`${named('SESSION_MAX_AGE')} must be at least ${named('SESSION_IDLE_TIMEOUT')}`]);
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
    comments: { clientLimit: raw.COMMENT_CLIENT_LIMIT, entryLimit: raw.COMMENT_ENTRY_LIMIT, windowMs: raw.COMMENT_LIMIT_WINDOW },
    plugins: raw.PLUGINS,
    pluginHookTimeoutMs: raw.PLUGIN_HOOK_TIMEOUT_MS,
    webhooks: { timeoutMs: raw.WEBHOOK_TIMEOUT_MS },
  };
}

function smtpConfig(raw: RawConfig): SmtpConfig | undefined {
  const from = raw.SMTP_FROM ?? `Folio <folio@${raw.PUBLIC_URL === undefined ? 'localhost' : new URL(raw.PUBLIC_URL).hostname}>`;
  if (raw.SMTP_URL !== undefined) return { transport: raw.SMTP_URL, from };
  if (raw.SMTP_HOST === undefined) return undefined;
  const port = raw.SMTP_PORT;
  const auth = raw.SMTP_USER === undefined ? undefined : { user: raw.SMTP_USER, pass: raw.SMTP_PASSWORD ?? '' };
  // Port 465 speaks TLS from the first byte; the others upgrade with STARTTLS when the server offers it.
  return { transport: { host: raw.SMTP_HOST, port, secure: port === 465, ...(auth ? { auth } : {}) }, from };
}

/**
 * Folio's public address outside a request (printed links, CLI, jobs): PUBLIC_URL, else
 * `http://localhost:PORT` when HOST is this machine's loopback or every interface, since browsers
 * refuse passkeys on an IP address such as 127.0.0.1 (decisions/0011); else HOST itself. A request
 * still uses its own origin when PUBLIC_URL is unset (app.ts), so it agrees with the address opened.
 */
export function configuredBaseUrl(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host.replace(/^\[|\]$/g, '');
  const reachableAsLocalhost = ['0.0.0.0', '::', '::1', 'localhost'].includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
  return `http://${reachableAsLocalhost ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** A URL's password never reaches a terminal or a log through an error message. */
function redactPassword(value: string | undefined): string | undefined {
  return value?.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

/** `PORT (--port)`: how an error names a setting, its flag beside it when it has one. */
function named(variable: Variable): string {
  const flag = flagName(settings[variable]);
  return flag === undefined ? variable : `${variable} (${flag})`;
}

function keyOfFlag(setting: Setting): FlagKey | undefined {
  const flag = flagName(setting);
  return flag === undefined ? undefined : flagKey(flag);
}
