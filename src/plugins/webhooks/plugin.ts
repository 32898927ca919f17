import { isoNow } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { eventTypeOf, forEveryEvent, resourceOf } from '../event-types.ts';
import { definePlugin, type TransactionalHookContext } from '../types.ts';
import { webhookRoutes } from './routes.ts';
import { insertDeliveries, listActiveSubscriptions, newDelivery } from './store.ts';
import { createDeliveryWorker } from './worker.ts';

/**
 * Webhooks: every event a subscription asks for becomes a delivery in the outbox, written in the
 * transaction of the change (no event lost, none for a change rolled back); every server process
 * sends what is due (worker.ts), signed the Standard Webhooks way.
 */
export const webhooksPlugin = definePlugin({
  id: 'webhooks',
  name: 'Webhooks',
  version: '1.0.0',
  description: 'Signed HTTP notifications of content, media and sign-in events to subscribed URLs, retried for up to a day',
  transactionalHooks: forEveryEvent(async (name, event, ctx: TransactionalHookContext<unknown>) => {
    const type = eventTypeOf[name];
    const subscriptions = (await listActiveSubscriptions(ctx.db)).filter((subscription) => {
      const events = JSON.parse(subscription.events) as string[];
      return events.includes('*') || events.includes(type);
    });
    if (subscriptions.length === 0) return;
    const now = isoNow(ctx.clock);
    const resource = resourceOf(name, event);
    const payload = JSON.stringify({ type, timestamp: now, data: event });
    const messageId = `msg_${newId()}`;
    const message = { messageId, eventType: type, orderingKey: `${resource.type}:${resource.id}`, payload, now };
    await insertDeliveries(ctx.db, subscriptions.map((subscription) => newDelivery(subscription.id, message)));
  }),
  routes: webhookRoutes,
  background: (ctx) => {
    const worker = createDeliveryWorker(ctx);
    worker.start();
    return worker;
  },
});
