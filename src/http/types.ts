import type { Logger } from 'pino';
import type { Context } from '../core/context.ts';

/** What middleware puts on each request for the handlers. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** The operation context; authenticates on first use, and only when asked (public routes never do). */
    resolveContext: (authenticate: boolean) => Promise<Context>;
  };
}
