import { z } from 'zod';
import { pageQuery } from '../../core/pagination.ts';
import { eventTypes } from '../event-types.ts';

const EventTypeSchema = z.enum([...eventTypes, '*']).describe('An event type, or * for every event');
const UrlSchema = z.string().max(2000).describe('Where deliveries are POSTed: an http(s) URL');

export const SubscriptionSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookSubscription' });
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const CreateSubscriptionBody = z.strictObject({
  url: UrlSchema,
  events: z.array(EventTypeSchema).min(1).max(eventTypes.length + 1),
  description: z.string().max(500).optional(),
  active: z.boolean().default(true),
});

export const UpdateSubscriptionBody = z.strictObject({
  url: UrlSchema.optional(),
  events: z.array(EventTypeSchema).min(1).max(eventTypes.length + 1).optional(),
  description: z.string().max(500).nullable().optional(),
  active: z.boolean().optional(),
});

export const SubscriptionIdParams = z.object({ id: z.string().min(1).max(64) });
export const DeliveryIdParams = z.object({ id: z.string().min(1).max(64) });

export const CreatedSubscriptionResponse = z.object({
  item: SubscriptionSchema,
  secret: z.string().describe('The signing secret (whsec_…): shown here only, keep it'),
});
export const SubscriptionResponse = z.object({ item: SubscriptionSchema });
export const SubscriptionListResponse = z.object({ items: z.array(SubscriptionSchema) });

export const deliveryStates = ['pending', 'sending', 'succeeded', 'failed'] as const;

export const ListDeliveriesQuery = z.object({
  state: z.enum(deliveryStates).optional(),
  ...pageQuery(20),
});

export const AttemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.string(),
  durationMs: z.number().int(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable().describe("The start of the receiver's answer (at most 1 KB, as text); null when it sent none"),
});

export const DeliverySchema = z
  .object({
    id: z.string(),
    subscriptionId: z.string(),
    messageId: z.string().describe('The webhook-id the receiver sees, the same on every attempt'),
    eventType: z.string(),
    state: z.enum(deliveryStates),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    log: z.array(AttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });
export type Delivery = z.infer<typeof DeliverySchema>;

export const DeliveryListResponse = z.object({ items: z.array(DeliverySchema), nextCursor: z.string().optional() });
export const DeliveryResponse = z.object({ item: DeliverySchema });
