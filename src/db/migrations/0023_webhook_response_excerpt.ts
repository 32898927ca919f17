import type { Kysely } from 'kysely';

/** The start of what the receiver answered to each webhook attempt, as the delivery log shows it (plugins/webhooks/sender.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('response_excerpt', 'text').execute();
}
