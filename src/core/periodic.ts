import type { Logger } from 'pino';
import { logFailure } from './errors.ts';

/**
 * Background work done in passes: started at once and then every `intervalMs`, never two passes at
 * a time (a pass asked for while one runs is that pass), a failed pass logged as `failure` says and
 * tried again at the next tick. The job runner, the webhook worker, housekeeping, the plugins' hand-over
 * and the audit log's pruning all run this way.
 */
export interface Periodic<T> {
  /** The pass running now, or a new one: for callers that must wait for a pass (tests, `runDue`). */
  runNow(): Promise<T>;
  /** A pass now, then one every interval; the timer does not keep the process alive. */
  start(): void;
  /** No more passes; resolves when the one running has ended. */
  stop(): Promise<void>;
}

export function periodic<T>(pass: () => Promise<T>, options: { intervalMs: number; log: Logger; failure: string }): Periodic<T> {
  // A database that does not answer fails every pass until it is back: that outage is logged once
  // (db/outage.ts), not a stack trace a pass.
  const onError = (error: unknown) => logFailure(options.log, error, options.failure);
  let running: Promise<T> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const runNow = () => (running ??= pass().finally(() => (running = undefined)));
  return {
    runNow,
    start() {
      const tick = () => void runNow().catch(onError);
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
      tick();
    },
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
