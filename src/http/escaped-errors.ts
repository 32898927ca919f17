import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context as HonoContext, Next } from 'hono';
import type { Logger } from 'pino';
import { failure } from './envelope.ts';
import { asAppError } from './results.ts';
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
 * Runs the rest of the request (`next`) in a scope the process-level handlers can fail (guardProcess):
 * an escaped error of the request rejects the one promise awaited here, whether or not `next` ever
 * settles, and the request is answered with the failure. Called by the request's own middleware
 * (request-context.ts) rather than being a middleware of its own: one layer less on every request.
 */
export async function failOnEscapedErrors(c: HonoContext<AppEnv>, next: Next): Promise<void> {
  let answered = false;
  try {
    await new Promise<void>((resolve, reject) => {
      const scope: RequestScope = {
        escaped(error) {
          // After the answer went out there is no one to tell: logged as any escaped error is.
          if (answered) c.get('log').error({ err: error }, 'error after the request was answered');
          else reject(error);
        },
      };
      scopes.run(scope, next).then(resolve, reject);
    });
  } catch (error) {
    c.res = failure(c, asAppError(c, error));
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
