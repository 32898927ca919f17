import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context as HonoContext } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './types.ts';

/**
 * Errors that escape a request's own promise chain: thrown from an event handler of a stream the
 * request made, an 'error' event nobody listens to, a promise nobody awaits. Node would end the
 * process for them, and with it every other request. Instead the process asks which request was
 * running when it happened (the async context follows the callbacks a request set up) and fails
 * that request alone: a 500 with its request id, logged at error level.
 */
interface RequestScope {
  escaped(error: unknown): void;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/**
 * Runs the rest of the request (`work`) in a scope the process-level handlers can fail (guardProcess):
 * an escaped error of the request rejects the one promise awaited here, whether or not `work` ever
 * settles, and the caller answers the request with the failure (request-context.ts).
 */
export async function failOnEscapedErrors<T>(c: HonoContext<AppEnv>, work: () => Promise<T>): Promise<T> {
  let answered = false;
  try {
    return await new Promise<T>((resolve, reject) => {
      const scope: RequestScope = {
        escaped(error) {
          // After the answer went out there is no one to tell: logged as any escaped error is.
          if (answered) c.get('log').error({ err: error }, 'error after the request was answered');
          else reject(error);
        },
      };
      scopes.run(scope, work).then(resolve, reject);
    });
  } finally {
    answered = true;
  }
}

/**
 * Installs the process's handlers of escaped errors and rejections: one in a request's scope fails
 * that request; one outside any request (a timer of background work) is logged, and the process
 * goes on. Returns the function that removes them.
 */
export function guardProcess(log: Logger): () => void {
  const onEscaped = (error: unknown) => {
    const scope = scopes.getStore();
    if (scope) scope.escaped(error);
    else log.error({ err: error }, 'unhandled error outside any request');
  };
  process.on('uncaughtException', onEscaped);
  process.on('unhandledRejection', onEscaped);
  return () => {
    process.off('uncaughtException', onEscaped);
    process.off('unhandledRejection', onEscaped);
  };
}
