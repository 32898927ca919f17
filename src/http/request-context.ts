import type { IncomingMessage } from 'node:http';
import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { JsonWriter } from '../core/raw-json.ts';
import type { HeaderMap } from './headers.ts';
import type { AppEnv } from './types.ts';

/**
 * A request header, read from Node's raw headers when served by @hono/node-server. Going through
 * `c.req.header` builds a WHATWG Headers object for the request, a large share of a small request's cost.
 */
export function requestHeader(c: HonoContext, name: string): string | undefined {
  const incoming = incomingMessage(c);
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Node's own request object under @hono/node-server; undefined for in-process requests (`app.request`). */
export function incomingMessage(c: HonoContext): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

const acceptableRequestId = /^[\w\-=.:]{1,128}$/;

export interface RequestContextOptions {
  log: Logger;
  /** Headers for every response, and for responses under `apiPrefix`. */
  headers: HeaderMap;
  apiHeaders: HeaderMap;
  apiPrefix: string;
  json: JsonWriter;
}

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is sane, else a new UUID), decides the
 * fixed response headers, and writes one structured log line when the response is ready.
 *
 * The headers go out as a plain object: the envelope builds its responses with it directly
 * (http/envelope.ts), because any `c.header()` call makes Hono build a WHATWG Headers object per
 * response, which costs more than the rest of a small request. Responses made otherwise (the docs
 * page, openapi.json) get the same headers added here afterwards.
 */
export function requestContext({ log, headers, apiHeaders, apiPrefix, json }: RequestContextOptions): MiddlewareHandler<AppEnv> {
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
    await next();
    if (!c.get('responseHeadersApplied')) {
      for (const [name, value] of Object.entries(responseHeaders)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
    requestLog.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  };
}
