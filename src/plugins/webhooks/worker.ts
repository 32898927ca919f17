import { performance } from 'node:perf_hooks';
import { batched } from '../../core/batched.ts';
import { logFailure } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { periodic } from '../../core/periodic.ts';
import type { BackgroundContext } from '../types.ts';
import { sendWebhook } from './sender.ts';
import { signatureHeaders } from './signing.ts';
import { claimDeliveries, settleAttempts, type ClaimedDelivery, type Settlement } from './store.ts';

/** Retries stop once the next would start more than this after the event (or a manual redelivery). */
export const retryWindowMs = 24 * 3_600_000;
const firstRetryMs = 30_000;
const longestWaitMs = 6 * 3_600_000;

/** The wait after failed attempt `attempt`: doubling from 30 s, at most 6 hours (about 13 attempts in a day). */
export function retryDelayMs(attempt: number): number {
  return Math.min(firstRetryMs * 2 ** (attempt - 1), longestWaitMs);
}

export interface DeliveryWorker {
  /** Sends every delivery that is due now, until none is left; resolves with how many attempts were made. */
  runDue(): Promise<number>;
  /** Polls every `intervalMs` (never two passes at once). */
  start(): void;
  /** Stops polling and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/**
 * Sends webhook deliveries from the shared outbox. Any number of processes run one: a claim is a
 * lease on the row (long enough for one attempt, which the timeout bounds), so each delivery is sent
 * by one process at a time, and a process that dies mid-attempt leaves it to be claimed again.
 */
export function createDeliveryWorker(ctx: BackgroundContext, options: { concurrency?: number; intervalMs?: number } = {}): DeliveryWorker {
  const { clock, log, config } = ctx;
  const concurrency = options.concurrency ?? 16;
  const intervalMs = options.intervalMs ?? 1000;
  const leaseMs = config.webhooks.timeoutMs + 30_000;
  const owner = `${process.pid}-${newId()}`;
  // Attempts that end while others are being recorded are recorded together: one transaction for a
  // burst of answers rather than one each.
  const settle = batched((settlements: Settlement[]) => settleAttempts(ctx.db, settlements));

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    const { delivery, subscription } = claimed;
    const startedAt = clock.now();
    const started = performance.now();
    const headers = signatureHeaders(subscription.secret, delivery.message_id, startedAt, delivery.payload);
    const result = await sendWebhook(subscription.url, headers, delivery.payload, { timeoutMs: config.webhooks.timeoutMs, allowPrivate: config.outgoingAllowPrivate });
    const durationMs = Math.round(performance.now() - started);
    const now = clock.now();
    const retryAt = new Date(now.getTime() + retryDelayMs(claimed.attempt));
    const state = result.error === undefined ? 'succeeded' : retryAt.getTime() - Date.parse(delivery.window_started_at) > retryWindowMs ? 'failed' : 'pending';
    const settled = await settle({
      claim: claimed,
      attempt: { id: newId(), delivery_id: delivery.id, attempt: claimed.attempt, started_at: startedAt.toISOString(), duration_ms: durationMs, status_code: result.status ?? null, error: result.error ?? null, response_excerpt: result.excerpt ?? null },
      outcome: { state, retryAt: state === 'pending' ? retryAt.toISOString() : undefined, status: result.status ?? null, error: result.error ?? null, now: now.toISOString() },
    });
    const fields = { deliveryId: delivery.id, subscriptionId: subscription.id, attempt: claimed.attempt, status: result.status, durationMs };
    if (!settled) log.warn(fields, 'webhook attempt finished after its claim ran out; another process may send it again');
    else if (state === 'failed') log.error({ ...fields, error: result.error }, 'webhook delivery failed for good');
    else if (state === 'pending') log.warn({ ...fields, error: result.error, retryAt }, 'webhook attempt failed; it will be retried');
  }

  /**
   * Keeps up to `concurrency` attempts in flight, claiming more as each ends (an attempt that ends
   * may free the next event of its entry), until nothing is due and nothing is in flight.
   */
  async function claimAndSend(): Promise<number> {
    // The deliveries of every event committed so far are made first (decisions/0030).
    await ctx.plugins?.handOverQueuedEvents(ctx);
    const inFlight = new Set<Promise<void>>();
    let sent = 0;
    for (;;) {
      // Claims are made for half the slots or more at once: one claim transaction serves several attempts.
      const free = inFlight.size === 0 || concurrency - inFlight.size >= concurrency / 2 ? concurrency - inFlight.size : 0;
      const now = clock.now();
      const claimed = free === 0 ? [] : await claimDeliveries(ctx.db, { owner, now: now.toISOString(), leaseExpiresAt: new Date(now.getTime() + leaseMs).toISOString(), limit: free });
      for (const delivery of claimed) {
        // A failure to record the attempt leaves the claim to run out: the delivery is claimed again then.
        const running = attempt(delivery)
          .catch((error: unknown) => logFailure(log, error, 'recording a webhook attempt failed', { deliveryId: delivery.deliveryId }))
          .finally(() => inFlight.delete(running));
        inFlight.add(running);
      }
      sent += claimed.length;
      if (inFlight.size === 0) return sent;
      if (claimed.length < free || free === 0) await Promise.race(inFlight);
    }
  }

  const passes = periodic(claimAndSend, { intervalMs, log, failure: 'sending webhooks failed' });
  return { runDue: passes.runNow, start: passes.start, stop: passes.stop };
}
