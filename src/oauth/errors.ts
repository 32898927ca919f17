import { AppError } from '../core/errors.ts';
import type { FailureResponse } from '../http/route.ts';

/** The error codes of RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009, RFC 8707 and RFC 8628 §3.5 that Folio answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'server_error'
  | 'temporarily_unavailable';

/**
 * A refusal worded as the OAuth RFCs word it. It is an AppError like any other (400, or 401 for an
 * unknown client), so it reads the same in logs; the OAuth routes send `error` as the RFCs say.
 */
export class OAuthError extends AppError {
  readonly error: OAuthErrorCode;
  constructor(error: OAuthErrorCode, description: string) {
    super(error === 'invalid_client' ? 'UNAUTHORIZED' : 'VALIDATION_ERROR', description);
    this.error = error;
  }
}

/** RFC 6749 §5.1: token responses (and their errors) are never cached. */
export const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** The OAuth code and status of any failure: input errors are `inputError`, the rest what they are. */
export function oauthErrorOf(error: AppError, inputError: OAuthErrorCode = 'invalid_request'): { status: number; code: OAuthErrorCode } {
  if (error instanceof OAuthError) return { status: error.status, code: error.error };
  // RFC 8707 §2: one resource per request here; two are refused as a target, not as a malformed request.
  if (error.code === 'VALIDATION_ERROR' && namesParameter(error, 'resource')) return { status: 400, code: 'invalid_target' };
  switch (error.code) {
    case 'VALIDATION_ERROR':
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { status: 400, code: inputError };
    case 'PAYLOAD_TOO_LARGE':
      return { status: 413, code: inputError };
    case 'RATE_LIMITED':
    case 'SERVICE_UNAVAILABLE':
      return { status: error.status, code: 'temporarily_unavailable' };
    case 'UNAUTHORIZED':
      return { status: 401, code: 'invalid_client' };
    default:
      return { status: error.status >= 500 ? error.status : 400, code: error.status >= 500 ? 'server_error' : 'invalid_request' };
  }
}

function namesParameter(error: AppError, name: string): boolean {
  const issues = error.details.issues;
  return Array.isArray(issues) && issues.some((issue: { path?: unknown }) => issue.path === name);
}

/** The `failure` of the JSON endpoints (token, device code, registration, revocation): the RFCs' error object. */
export function oauthJsonFailure(inputError: OAuthErrorCode = 'invalid_request') {
  return (error: AppError): FailureResponse => {
    const { status, code } = oauthErrorOf(error, inputError);
    const retryAfter = error.details.retryAfter;
    const headers: Record<string, string> = { ...noStore, ...(typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {}) };
    // A server failure says nothing of its cause (the log has it, under the request id).
    const description = status >= 500 && !(error instanceof OAuthError) ? 'The server could not answer this request' : error.message;
    return { kind: 'json', status, body: { error: code, error_description: description }, headers };
  };
}
