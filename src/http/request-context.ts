import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { JsonWriter } from '../core/raw-json.ts';
import { failOnEscapedErrors } from './escaped-errors.ts';
import type { HeaderMap } from './headers.ts';
import { requestHeader } from './request-headers.ts';
import type { AppEnv } from './types.ts';

const acceptableRequestId = /^[\w\-=.:]{1,128}$/;

export interface RequestContextOptions {
  log: Logger;
  /** Headers for every response, and for responses under `apiPrefix`. */
  headers: HeaderMap;
  apiHeaders: HeaderMap;
  apiPrefix: string;
  json: JsonWriter;
  /** The request's `resolveContext`: the operation context, built on its first use (routes and the MCP endpoint ask for it). */
  operationContext: (c: HonoContext<AppEnv>) => AppEnv['Variables']['resolveContext'];
}

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is sane, else a new UUID), decides the
 * fixed response headers, offers the operation context, runs the rest of the request in the scope
 * that fails it on an escaped error (escaped-errors.ts), and writes one structured log line when the
 * response is ready. One middleware for all of it: every layer of middleware costs each request an
 * async call, a promise and a closure of the router's chain.
 *
 * The headers go out as a plain object: the envelope builds its responses with it directly
 * (http/envelope.ts), because any `c.header()` call makes Hono build a WHATWG Headers object per
 * response, which costs more than the rest of a small request. Responses made otherwise (the docs
 * page, openapi.json) get the same headers added here afterwards.
 */
export function requestContext({ log, headers, apiHeaders, apiPrefix, json, operationContext }: RequestContextOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    c.set('json', json);
    const given = requestHeader(c, 'x-request-id');
    const requestId = given !== undefined && acceptableRequestId.test(given) ? given : crypto.randomUUID();
    c.set('requestId', requestId);
    const responseHeaders = { 'x-request-id': requestId, ...headers, ...(c.req.path.startsWith(apiPrefix) ? apiHeaders : {}) };
    c.set('responseHeaders', responseHeaders);
    const requestLog = log.child({ requestId });
    c.set('log', requestLog);
    c.set('resolveContext', operationContext(c));
    await failOnEscapedErrors(c, next);
    if (!c.get('responseHeadersApplied')) {
      for (const [name, value] of Object.entries(responseHeaders)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
    // The line's fields are not even gathered when the level is off (production runs at warn or info).
    if (requestLog.isLevelEnabled('info')) requestLog.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  };
}
