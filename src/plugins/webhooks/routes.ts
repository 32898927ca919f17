import { defineRoute } from '../../http/route.ts';
import { createSubscription, deleteSubscription, getSubscription, listDeliveries, listSubscriptions, redeliver, updateSubscription } from './operations.ts';
import {
  CreatedSubscriptionResponse,
  CreateSubscriptionBody,
  DeliveryIdParams,
  DeliveryListResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
  SubscriptionIdParams,
  SubscriptionListResponse,
  SubscriptionResponse,
  UpdateSubscriptionBody,
} from './schemas.ts';
import { z } from 'zod';

const tag = 'Webhooks (plugin)';

/** Paths are relative to /plugins/webhooks. */
export const webhookRoutes = [
  defineRoute({ method: 'get', path: '/subscriptions', tag, summary: 'Webhook subscriptions (secrets never shown again)', operation: listSubscriptions, response: SubscriptionListResponse }),
  defineRoute({ method: 'post', path: '/subscriptions', tag, summary: 'Subscribe a URL to events; the answer shows the signing secret, once', operation: createSubscription, body: CreateSubscriptionBody, status: 201, response: CreatedSubscriptionResponse }),
  defineRoute({ method: 'get', path: '/subscriptions/:id', tag, summary: 'One subscription', operation: getSubscription, params: SubscriptionIdParams, response: SubscriptionResponse }),
  defineRoute({ method: 'patch', path: '/subscriptions/:id', tag, summary: 'Change a subscription (URL, events, description, active)', operation: updateSubscription, params: SubscriptionIdParams, body: UpdateSubscriptionBody, response: SubscriptionResponse }),
  defineRoute({ method: 'delete', path: '/subscriptions/:id', tag, summary: 'Delete a subscription with its deliveries', operation: deleteSubscription, params: SubscriptionIdParams, response: z.object({ success: z.literal(true) }) }),
  defineRoute({
    method: 'get',
    path: '/subscriptions/:id/deliveries',
    tag,
    summary: "A subscription's deliveries, newest first, each with its attempts (status codes, timings)",
    operation: listDeliveries,
    params: SubscriptionIdParams,
    query: ListDeliveriesQuery,
    response: DeliveryListResponse,
  }),
  defineRoute({ method: 'post', path: '/deliveries/:id/redeliver', tag, summary: 'Send a finished delivery again', operation: redeliver, params: DeliveryIdParams, response: DeliveryResponse }),
];
