/**
 * Background work done in passes: started at once and then every `intervalMs`, never two passes at
 * a time (a pass asked for while one runs is that pass), a failed pass handed to `onError` and tried
 * again at the next tick. The job runner, the webhook worker, housekeeping, the plugins' hand-over
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

export function periodic<T>(pass: () => Promise<T>, options: { intervalMs: number; onError: (error: unknown) => void }): Periodic<T> {
  let running: Promise<T> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const runNow = () => (running ??= pass().finally(() => (running = undefined)));
  return {
    runNow,
    start() {
      const tick = () => void runNow().catch(options.onError);
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
