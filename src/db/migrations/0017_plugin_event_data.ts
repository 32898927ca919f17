import type { Kysely } from 'kysely';

/**
 * Which events a plugin takes with the entry's field values (decisions/0032): a JSON array of event
 * types (`content.saved`, or `*` for all), or null for none. The other events are queued without
 * them. The webhooks plugin keeps its row to what its active subscriptions listen to; the rows of a
 * site that already has subscriptions are filled in here, so none of their events goes without.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema.alterTable('plugin_states').addColumn('event_data', 'text').execute();
  const active = await db.selectFrom('webhook_subscriptions').select('events').where('active', '=', 1).execute();
  if (active.length === 0) return;
  const types = [...new Set(active.flatMap((row: { events: string }) => JSON.parse(row.events) as string[]))].sort();
  const now = new Date().toISOString();
  await db
    .insertInto('plugin_states')
    .values({ plugin_id: 'webhooks', enabled: 1, settings: null, updated_at: now, event_data: JSON.stringify(types) })
    .onConflict((conflict) => conflict.column('plugin_id').doUpdateSet({ event_data: JSON.stringify(types) }))
    .execute();
}
