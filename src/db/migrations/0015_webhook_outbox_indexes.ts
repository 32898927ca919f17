import { sql, type Kysely } from 'kysely';

/**
 * The webhook outbox's indexes (decisions/0023), as 0011 first made them, replaced: both now cover
 * unfinished deliveries only, so they stay small however long the delivery log grows. The claim reads
 * the due ones, oldest first (a delivery being sent is due again at its claim's end, in
 * `next_attempt_at`); the order check finds an older unfinished delivery of the same subscription and
 * resource. A third index serves each subscription's delivery log.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await db.schema.dropIndex('webhook_deliveries_order').execute();
  const unfinished = sql<boolean>`state in ('pending', 'sending')`;
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['next_attempt_at', 'id']).where(unfinished).execute();
  await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['subscription_id', 'ordering_key', 'id']).where(unfinished).execute();
  await db.schema.createIndex('webhook_deliveries_subscription').on('webhook_deliveries').columns(['subscription_id', 'id']).execute();
}
