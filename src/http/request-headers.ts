import type { IncomingMessage } from 'node:http';
import type { Context as HonoContext } from 'hono';

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
