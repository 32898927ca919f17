import type { Logger } from 'pino';
import type { Context } from '../core/context.ts';
import type { JsonWriter } from '../core/raw-json.ts';
import type { HeaderMap } from './headers.ts';

/** What middleware puts on each request for the handlers. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The app's writer of JSON responses (core/raw-json.ts). */
    json: JsonWriter;
    log: Logger;
    /** The fixed headers of this response (request id, security, caching). */
    responseHeaders: HeaderMap;
    /** Set when a response was built with `responseHeaders` already in it. */
    responseHeadersApplied: boolean;
    /** The operation context; authenticates on first use, and only when asked (public routes never do). */
    resolveContext: (authenticate: boolean) => Promise<Context>;
  };
}
