import type { z } from 'zod';
import { isoNow } from '../../core/clock.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { AppError, notFound, validationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { access, defineOperation, type AuthorizedContext } from '../../core/operation.ts';
import { toPage, type Page } from '../../core/pagination.ts';
import { inTransaction, serializeTransactions, type Transaction } from '../../db/dialect.ts';
import { outgoingUrlProblem } from '../../net/outgoing.ts';
import type { CreateSubscriptionBody, Delivery, ListDeliveriesQuery, Subscription, UpdateSubscriptionBody } from './schemas.ts';
import { newSigningSecret } from './signing.ts';
import * as store from './store.ts';

const adminOnly = access.scope('admin');

function toSubscription(row: store.SubscriptionRow): Subscription {
  return { id: row.id, url: row.url, events: JSON.parse(row.events) as string[], description: row.description, active: row.active === 1, createdAt: row.created_at, updatedAt: row.updated_at };
}

function toDelivery(row: store.DeliveryRow, attempts: store.AttemptRow[]): Delivery {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    messageId: row.message_id,
    eventType: row.event_type,
    state: row.state as Delivery['state'],
    attempts: row.attempts,
    nextAttemptAt: row.state === 'pending' ? row.next_attempt_at : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    log: attempts.map((attempt) => ({ attempt: attempt.attempt, startedAt: attempt.started_at, durationMs: attempt.duration_ms, statusCode: attempt.status_code, error: attempt.error, responseExcerpt: attempt.response_excerpt })),
  };
}

async function checkUrl(ctx: AuthorizedContext, url: string): Promise<void> {
  const problem = await outgoingUrlProblem(url, ctx.config.outgoingAllowPrivate);
  if (problem) throw validationError([{ path: 'url', message: problem }]);
}

export const webhooksId = 'webhooks';
// Subscription changes run one at a time, so the event types asked for are those of the last one's view.
const subscriptionsLockKey = 7_346_121_905_116;

/**
 * Changes subscriptions and, in the same transaction, tells the plugin host which events the active
 * ones listen to: those are queued with the entry's field values, the payload's `data` (decisions/0032).
 */
async function changingSubscriptions<T>(ctx: AuthorizedContext, change: (tx: Transaction) => Promise<T>): Promise<T> {
  return inTransaction(ctx.db, async (tx) => {
    await serializeTransactions(tx, subscriptionsLockKey);
    const result = await change(tx);
    const active = await store.listActiveSubscriptions(tx);
    const types = new Set(active.flatMap((subscription) => JSON.parse(subscription.events) as string[]));
    await ctx.plugins?.takeEventData({ ...ctx, db: tx }, webhooksId, types.has('*') ? ['*'] : [...types]);
    return result;
  });
}

async function requireSubscription(ctx: AuthorizedContext, id: string): Promise<store.SubscriptionRow> {
  const row = await store.findSubscription(ctx.db, id);
  if (!row) throw notFound(`Webhook subscription ${id}`);
  return row;
}

export const createSubscription = defineOperation({
  name: 'webhooks.createSubscription',
  access: adminOnly,
  async run(ctx, input: z.output<typeof CreateSubscriptionBody>): Promise<{ item: Subscription; secret: string }> {
    await checkUrl(ctx, input.url);
    const now = isoNow(ctx.clock);
    const secret = newSigningSecret();
    const row = { id: newId(), url: input.url, events: JSON.stringify([...new Set(input.events)]), description: input.description ?? null, secret, active: input.active ? 1 : 0, created_at: now, updated_at: now };
    await changingSubscriptions(ctx, (tx) => store.insertSubscription(tx, row));
    return { item: toSubscription(row), secret };
  },
});

export const listSubscriptions = defineOperation({
  name: 'webhooks.listSubscriptions',
  access: adminOnly,
  async run(ctx): Promise<{ items: Subscription[] }> {
    return { items: (await store.listSubscriptions(ctx.db)).map(toSubscription) };
  },
});

export const getSubscription = defineOperation({
  name: 'webhooks.getSubscription',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<{ item: Subscription }> {
    return { item: toSubscription(await requireSubscription(ctx, input.id)) };
  },
});

export const updateSubscription = defineOperation({
  name: 'webhooks.updateSubscription',
  access: adminOnly,
  async run(ctx, input: { id: string } & z.output<typeof UpdateSubscriptionBody>): Promise<{ item: Subscription }> {
    if (input.url !== undefined) await checkUrl(ctx, input.url);
    const changes: Parameters<typeof store.updateSubscription>[2] = { updated_at: isoNow(ctx.clock) };
    if (input.url !== undefined) changes.url = input.url;
    if (input.events !== undefined) changes.events = JSON.stringify([...new Set(input.events)]);
    if (input.description !== undefined) changes.description = input.description;
    if (input.active !== undefined) changes.active = input.active ? 1 : 0;
    const row = await changingSubscriptions(ctx, (tx) => store.updateSubscription(tx, input.id, changes));
    if (!row) throw notFound(`Webhook subscription ${input.id}`);
    return { item: toSubscription(row) };
  },
});

/** Deleting a subscription deletes its deliveries and their log with it. */
export const deleteSubscription = defineOperation({
  name: 'webhooks.deleteSubscription',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<{ success: true }> {
    if (!(await changingSubscriptions(ctx, (tx) => store.deleteSubscription(tx, input.id)))) throw notFound(`Webhook subscription ${input.id}`);
    return { success: true };
  },
});

export const listDeliveries = defineOperation({
  name: 'webhooks.listDeliveries',
  access: adminOnly,
  async run(ctx, input: { id: string } & z.output<typeof ListDeliveriesQuery>): Promise<Page<Delivery>> {
    await requireSubscription(ctx, input.id);
    await ctx.plugins?.handOverQueuedEvents(ctx);
    const before = input.cursor === undefined ? undefined : String(decodeCursor(input.cursor, 1)[0]);
    const rows = await store.listDeliveries(ctx.db, input.id, { before, state: input.state, limit: input.limit + 1 });
    const attempts = new Map<string, store.AttemptRow[]>();
    for (const attempt of await store.attemptsOf(ctx.db, rows.slice(0, input.limit).map((row) => row.id))) {
      attempts.set(attempt.delivery_id, [...(attempts.get(attempt.delivery_id) ?? []), attempt]);
    }
    return toPage(rows, input.limit, (row) => encodeCursor([row.id]), (row) => toDelivery(row, attempts.get(row.id) ?? []));
  },
});

/** Sends a finished delivery again (same message id, so a receiver can tell), with a new day of retries. */
export const redeliver = defineOperation({
  name: 'webhooks.redeliver',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<{ item: Delivery }> {
    const found = await store.findDelivery(ctx.db, input.id);
    if (!found) throw notFound(`Webhook delivery ${input.id}`);
    if (!(await store.requeueDelivery(ctx.db, input.id, isoNow(ctx.clock)))) {
      throw new AppError('CONFLICT', `Delivery ${input.id} is ${found.state}: only a finished delivery can be sent again`, { state: found.state });
    }
    const row = (await store.findDelivery(ctx.db, input.id))!;
    return { item: toDelivery(row, await store.attemptsOf(ctx.db, [row.id])) };
  },
});
