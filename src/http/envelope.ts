import type { Context as HonoContext } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppError } from '../core/errors.ts';

/** The spec's envelope, built only here: `{success:true,data}` or `{success:false,error:{code,message,details}}`. */
export function success(c: HonoContext, data: unknown, status: ContentfulStatusCode = 200): Response {
  return c.json({ success: true, data }, status);
}

export function failure(c: HonoContext, error: AppError): Response {
  return c.json(
    { success: false, error: { code: error.code, message: error.message, details: error.details } },
    error.status as ContentfulStatusCode,
  );
}
