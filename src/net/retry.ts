import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A failure the next try may not have (a timeout, a broken connection, 429, 5xx): worth trying again
 * after a pause, `waitMs` when the server said how long (`Retry-After`).
 */
export class TransientFailure extends Error {
  override name = 'TransientFailure';
  /** How many tries were made, once `withRetries` gives up. */
  tries = 1;
  readonly waitMs: number | undefined;
  constructor(message: string, waitMs?: number) {
    super(message);
    this.waitMs = waitMs;
  }
}

/**
 * Runs `attempt` until it succeeds, throws anything but a TransientFailure, or has failed
 * `retries + 1` times, pausing `delayMs` after the first failure and twice as long after each next
 * (or what the failure asks). Giving up throws the last TransientFailure with `tries` set. Stops at
 * once when `signal` aborts, pauses included.
 */
export async function withRetries<T>(attempt: () => Promise<T>, options: { retries: number; delayMs: number; signal?: AbortSignal }): Promise<T> {
  const { retries, delayMs, signal } = options;
  for (let failed = 0; ; failed++) {
    signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (error) {
      signal?.throwIfAborted();
      if (!(error instanceof TransientFailure)) throw error;
      if (failed >= retries) {
        error.tries = failed + 1;
        throw error;
      }
      await sleep(error.waitMs ?? delayMs * 2 ** failed, undefined, signal ? { signal } : {});
    }
  }
}
