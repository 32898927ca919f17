import type { Context as HonoContext } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppError } from '../core/errors.ts';
import type { AppEnv } from './types.ts';

/** The spec's envelope, built only here: `{success:true,data}` or `{success:false,error:{code,message,details}}`. */
export function success(c: HonoContext<AppEnv>, data: unknown, status: ContentfulStatusCode = 200): Response {
  return envelopeResponse(c, { success: true, data }, status);
}

export function errorBody(error: AppError): { success: false; error: { code: string; message: string; details: Record<string, unknown> } } {
  return { success: false, error: { code: error.code, message: error.message, details: error.details } };
}

/** An error envelope; `details.retryAfter` (seconds) also goes out as `Retry-After`. */
export function failure(c: HonoContext<AppEnv>, error: AppError, headers: Record<string, string> = {}): Response {
  const retryAfter = error.details.retryAfter;
  const extra = typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter), ...headers } : headers;
  return envelopeResponse(c, errorBody(error), error.status, extra);
}

/** A non-JSON representation (e.g. `GET /schema` as TypeScript), with the same headers as the envelope. */
export function textResponse(c: HonoContext<AppEnv>, body: string, contentType: string): Response {
  c.set('responseHeadersApplied', true);
  return new Response(body, { status: 200, headers: { ...c.get('responseHeaders'), 'content-type': contentType } });
}

/** A plain-object header map keeps @hono/node-server on its fast path (see request-context.ts). */
function envelopeResponse(c: HonoContext<AppEnv>, body: unknown, status: number, headers: Record<string, string> = {}): Response {
  c.set('responseHeadersApplied', true);
  return new Response(c.get('json').write(body), {
    status,
    headers: { ...c.get('responseHeaders'), ...headers, 'content-type': 'application/json' },
  });
}
