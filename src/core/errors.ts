import { DatabaseUnavailableError, type OutageLog } from '../db/outage.ts';

/**
 * The one error type of Folio. Operations throw it with a code from the spec's error table (plus the
 * codes DECISIONS §1 adds); the REST and MCP adapters map the code to a status or a tool error.
 */
export const errorStatus = {
  VALIDATION_ERROR: 400,
  SCHEMA_ERROR: 400,
  RESERVED_SLUG: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DUPLICATE_SLUG: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  CONTENT_LIST_ERROR: 500,
  CONTENT_CREATE_ERROR: 500,
  CONTENT_UPDATE_ERROR: 500,
  CONTENT_DELETE_ERROR: 500,
  MEDIA_LIST_ERROR: 500,
  MEDIA_CREATE_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ValidationIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

/** A 400 naming each problem, the shape every validation failure takes on the wire. */
export function validationError(issues: ValidationIssue[], message?: string): AppError {
  const summary = message ?? issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
  return new AppError('VALIDATION_ERROR', summary || 'Invalid input', { issues });
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}

/** The single 401: the same words for every reason, so a caller learns nothing about why. */
export function unauthorized(): AppError {
  return new AppError('UNAUTHORIZED', 'Authentication required: a valid bearer token or session');
}

/** How long a client is asked to wait while the database does not answer: about what a PostgreSQL restart takes. */
export const databaseRetryAfterSeconds = 5;

/**
 * What every adapter answers when the database does not (db/outage.ts): 503 with Retry-After, never
 * INTERNAL_ERROR. The outage goes to the log once, through the first adapter that meets it, and not
 * per request; undefined for any other error.
 */
export function databaseUnavailable(error: unknown, log: OutageLog): AppError | undefined {
  if (!(error instanceof DatabaseUnavailableError)) return undefined;
  error.outage?.report(log, error.cause);
  return new AppError('SERVICE_UNAVAILABLE', `The database is not answering; try again in ${databaseRetryAfterSeconds} seconds`, { retryAfter: databaseRetryAfterSeconds });
}

/**
 * Logs a failure of background work (a pass, a hand-over, a hook run after a commit): a database that
 * does not answer is its outage, logged once however many passes meet it; anything else is a bug,
 * logged at error level with `fields`.
 */
export function logFailure(log: OutageLog & { error(fields: object, message: string): void }, error: unknown, message: string, fields: object = {}): void {
  if (databaseUnavailable(error, log) === undefined) log.error({ err: error, ...fields }, message);
}
