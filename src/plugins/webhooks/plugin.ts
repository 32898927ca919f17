import { newId } from '../../core/ids.ts';
import { isoNow } from '../../core/clock.ts';
import { eventTypeOf, takesEventType } from '../event-types.ts';
import { definePlugin } from '../types.ts';
import { webhooksId } from './operations.ts';
import { webhookRoutes } from './routes.ts';
import { insertDeliveries, listActiveSubscriptions, newDelivery, type DeliveryRow } from './store.ts';
import { createDeliveryWorker } from './worker.ts';

/**
 * Webhooks: every event a subscription asks for becomes a delivery in the outbox. Events reach it
 * through the plugins' queue (decisions/0030), written in the transaction of the change (no event
 * lost, none for a change rolled back) and taken here in batches; every server process sends what is
 * due (worker.ts), signed the Standard Webhooks way.
 */
export const webhooksPlugin = definePlugin({
  id: webhooksId,
  name: 'Webhooks',
  version: '1.0.0',
  description: 'Signed HTTP notifications of content, media and sign-in events to subscribed URLs, retried for up to a day',
  async consumeEvents(events, ctx) {
    const subscriptions = (await listActiveSubscriptions(ctx.db)).map((subscription) => ({ id: subscription.id, createdAt: subscription.created_at, events: new Set(JSON.parse(subscription.events) as string[]) }));
    if (subscriptions.length === 0) return;
    const now = isoNow(ctx.clock);
    const deliveries: DeliveryRow[] = [];
    for (const queued of events) {
      const { name, at, resource, json } = queued;
      const type = eventTypeOf[name];
      // A subscription is sent what happens from its creation on, not what was still queued then.
      const subscribed = subscriptions.filter((subscription) => subscription.createdAt <= at && takesEventType(subscription.events, type));
      if (subscribed.length === 0) continue;
      // Queued without the entry's values: no active subscription listened to it when the change was
      // made (operations.ts tells the host which events they listen to), so none is owed it.
      if ('entry' in queued.event && queued.event.entry.data === undefined) continue;
      // The payload is the queued JSON as it is, wrapped: the event is not parsed and written again.
      const payload = `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(at)},"data":${json}}`;
      const message = { messageId: `msg_${newId()}`, eventType: type, orderingKey: `${resource.type}:${resource.id}`, payload, now };
      for (const subscription of subscribed) deliveries.push(newDelivery(subscription.id, message));
    }
    await insertDeliveries(ctx.db, deliveries);
  },
  routes: webhookRoutes,
  background: (ctx) => {
    const worker = createDeliveryWorker(ctx);
    worker.start();
    return worker;
  },
});
