import type { Context as HonoContext } from 'hono';
import { incomingMessage } from './request-headers.ts';
import type { AppEnv } from './types.ts';

/**
 * A client that hangs up before its body has arrived makes Node destroy the request stream with an
 * "aborted" error, which the body read (http/body.ts, for routes and the MCP endpoint alike) throws.
 * Nothing failed here and any caller can do it at will, so it is logged at debug rather than as an
 * error, and answered with nginx's 499 "client closed request": no one receives it, but the request's
 * log line does not count it as a server failure. Undefined when `error` is not that hang-up.
 */
export function answerAbortedRequest(c: HonoContext<AppEnv>, error: unknown): Response | undefined {
  const incoming = incomingMessage(c);
  // The very error Node destroyed the request with: a bug that happens to coincide with a hang-up is still an error.
  if (incoming === undefined || incoming.errored === null || incoming.errored !== error) return undefined;
  c.get('log').debug({ err: error }, 'request aborted by the client');
  return new Response(null, { status: 499 });
}
