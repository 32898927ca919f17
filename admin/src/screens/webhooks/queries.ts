import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** The webhooks plugin's subscriptions (a 404 while the plugin is off or not loaded). */
export const subscriptionsQuery = queryOptions({
  queryKey: ['webhooks', 'subscriptions'],
  queryFn: () => dataOf(api.GET('/_cms/api/plugins/webhooks/subscriptions')),
});

/** A subscription's latest deliveries, newest first, each with its attempts. */
export const deliveriesQuery = (subscriptionId: string) =>
  queryOptions({
    queryKey: ['webhooks', 'deliveries', subscriptionId],
    queryFn: () => dataOf(api.GET('/_cms/api/plugins/webhooks/subscriptions/{id}/deliveries', { params: { path: { id: subscriptionId }, query: { limit: 20 } } })),
  });
