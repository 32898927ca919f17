import type { Context as HonoContext, Next } from 'hono';
import type { Logger } from 'pino';
import type { JsonWriter } from '../core/raw-json.ts';
import { failOnEscapedErrors } from './escaped-errors.ts';
import type { HeaderMap } from './headers.ts';
import { requestHeader } from './request-headers.ts';
import { answerThrown } from './results.ts';
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

/** A route's handler, a middleware, or the not-found handler. */
type Handler = (c: HonoContext<AppEnv>, next: Next) => Promise<Response | void> | Response | void;

/** What every handler the app registers is wrapped in (see requestContext). */
export type InRequestContext = (handler: Handler) => (c: HonoContext<AppEnv>, next?: Next) => Promise<Response>;

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is sane, else a new UUID), decides the
 * fixed response headers, offers the operation context, runs the rest of the request in the scope
 * that fails it on an escaped error (escaped-errors.ts), answers what it throws as app.onError would,
 * and writes one structured log line when the response is ready.
 *
 * A wrapper of each handler rather than a middleware for `*`: Hono runs a request that matches one
 * handler straight, and one that matches two (a middleware and its route) through its composer, which
 * sorts the matches, builds a dispatch chain and awaits each step: a few per cent of a small
 * request's CPU and about a twelfth of its garbage (docs/decisions/0067). Where a request does meet a middleware
 * (the CORS ones), the first wrapped handler to run sets the context up and the later ones pass.
 *
 * The headers go out as a plain object: the envelope builds its responses with it directly
 * (http/envelope.ts), because any `c.header()` call makes Hono build a WHATWG Headers object per
 * response, which costs more than the rest of a small request. Responses made otherwise (the docs
 * page, openapi.json, a CORS preflight) get the same headers added here afterwards.
 */
export function requestContext({ log, headers, apiHeaders, apiPrefix, json, operationContext }: RequestContextOptions): InRequestContext {
  return (handler) => async (c, next) => {
    if (c.get('requestId') !== undefined) return (await handler(c, next!)) ?? c.res;
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
    let response: Response;
    try {
      response = await failOnEscapedErrors(c, async () => (await handler(c, next!)) ?? c.res);
    } catch (error) {
      response = answerThrown(c, error);
    }
    if (!c.get('responseHeadersApplied')) {
      for (const [name, value] of Object.entries(responseHeaders)) if (!response.headers.has(name)) response.headers.set(name, value);
    }
    // The line's fields are not even gathered when the level is off (production runs at warn or info).
    if (requestLog.isLevelEnabled('info')) requestLog.info({ method: c.req.method, path: c.req.path, status: response.status, ms: Math.round(performance.now() - started) }, 'request');
    return response;
  };
}
