import type { Kysely } from 'kysely';

/**
 * Plugins (src/plugins/, decisions/0023): each plugin's enabled state and settings, the webhooks
 * plugin's subscriptions, its outbox of deliveries and their attempt log, and the audit log. A
 * plugin with no row has never been switched: it runs with its defaults.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('plugin_states')
    .addColumn('plugin_id', 'text', (column) => column.primaryKey())
    .addColumn('enabled', 'integer', (column) => column.notNull())
    // JSON object, validated by the plugin's schema when written; null until first written.
    .addColumn('settings', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('url', 'text', (column) => column.notNull())
    // JSON array of event types.
    .addColumn('events', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    // The signing key (`whsec_…`): HMAC needs it itself, so it is kept as it is, and shown only at creation.
    .addColumn('secret', 'text', (column) => column.notNull())
    .addColumn('active', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('subscription_id', 'text', (column) => column.notNull().references('webhook_subscriptions.id').onDelete('cascade'))
    // The message id the receiver sees (`webhook-id`): the same on every attempt, so it can drop repeats.
    .addColumn('message_id', 'text', (column) => column.notNull())
    .addColumn('event_type', 'text', (column) => column.notNull())
    // Deliveries with the same key (one entry, one media item) go out one after another, in order.
    .addColumn('ordering_key', 'text', (column) => column.notNull())
    .addColumn('payload', 'text', (column) => column.notNull())
    // pending | sending | succeeded | failed
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    // Retries stop a day after this: the event, or a manual redelivery.
    .addColumn('window_started_at', 'text', (column) => column.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  // The claim: due rows by state and time, oldest first.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at', 'id']).execute();
  // The order check: an older unfinished delivery of the same subscription and key.
  await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['subscription_id', 'ordering_key', 'id']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('delivery_id', 'text', (column) => column.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('duration_ms', 'integer', (column) => column.notNull())
    // The receiver's HTTP status; null when none came (refused address, timeout, connection error).
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'attempt']).execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('at', 'text', (column) => column.notNull())
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('resource_type', 'text', (column) => column.notNull())
    .addColumn('resource_id', 'text', (column) => column.notNull())
    // `user` or `system` (the CLI, the scheduler).
    .addColumn('actor_kind', 'text', (column) => column.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    // How the actor proved it: `token`, `session`, an OAuth client… and that credential's id.
    .addColumn('credential_type', 'text')
    .addColumn('credential_id', 'text')
    // JSON object: what the action concerned (collection, slug, status, file name…).
    .addColumn('details', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_events_resource').on('audit_events').columns(['resource_type', 'resource_id', 'at']).execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor_id', 'at']).execute();
}
