import type { Selectable } from 'kysely';
import { runCompiled } from '../db/compiled.ts';
import type { Db } from '../db/connection.ts';
import { inBoundList, limitLiteral } from '../db/dialect.ts';
import { ReadCache } from '../db/read-cache.ts';
import type { PluginEventsTable } from '../db/types.ts';

/** A plugin's stored switch and settings (JSON text, or null when never written), and the events it takes with data. */
export interface StoredPluginState {
  enabled: boolean;
  settings: string | null;
  /** The event types (or `*`) whose queued events carry the entry's field values for it; none when null. */
  eventData: ReadonlySet<string> | null;
}

// One entry: every plugin's row, read together. A change by any process is seen at the next request
// on SQLite (the change stamp); PostgreSQL reads the small table each time (read-cache.ts).
const states = new ReadCache<Map<string, StoredPluginState>>(1, ['plugin_states']);

export async function readPluginStates(db: Db): Promise<Map<string, StoredPluginState>> {
  const loaded = await states.get(db, 'all', async () => {
    const rows = await db.kysely.selectFrom('plugin_states').select(['plugin_id', 'enabled', 'settings', 'event_data']).execute();
    return new Map(rows.map((row) => [row.plugin_id, { enabled: row.enabled === 1, settings: row.settings, eventData: row.event_data === null ? null : new Set(JSON.parse(row.event_data) as string[]) }]));
  });
  return loaded ?? new Map();
}

/** Writes the switch, the settings or the events taken with data, keeping the rest as it was (or as `fallback` says, for a first write). */
export async function writePluginState(db: Db, pluginId: string, change: { enabled?: boolean; settings?: string; eventData?: readonly string[] }, fallback: { enabled: boolean }, now: string): Promise<void> {
  const eventData = change.eventData === undefined ? undefined : change.eventData.length === 0 ? null : JSON.stringify([...change.eventData].sort());
  const set: { enabled?: number; settings?: string; event_data?: string | null; updated_at: string } = { updated_at: now };
  if (change.enabled !== undefined) set.enabled = change.enabled ? 1 : 0;
  if (change.settings !== undefined) set.settings = change.settings;
  if (eventData !== undefined) set.event_data = eventData;
  await db.kysely
    .insertInto('plugin_states')
    .values({ plugin_id: pluginId, enabled: (change.enabled ?? fallback.enabled) ? 1 : 0, settings: change.settings ?? null, event_data: eventData ?? null, updated_at: now })
    .onConflict((conflict) => conflict.column('plugin_id').doUpdateSet(set))
    .execute();
}

/** An event waiting in the plugins' queue (decisions/0030). */
export type QueuedEventRow = Selectable<PluginEventsTable>;

/**
 * One row per event, in the writer's transaction: the only write a change pays for its plugins'
 * records. Through a statement compiled once, its values bound in the builder's order.
 */
export async function queueEvent(tx: Db, row: Omit<QueuedEventRow, 'seq'>): Promise<void> {
  const values = { name: row.name, at: row.at, resource: row.resource, consumers: row.consumers, event: row.event };
  await runCompiled(tx, 'queueEvent', (kysely) => kysely.insertInto('plugin_events').values(values), Object.values(values));
}

/** A plain read: whether any event waits for one of `pluginIds`, so an idle poll takes no write lock. */
export async function hasQueuedEvents(db: Db, pluginIds: readonly string[]): Promise<boolean> {
  return (await waitingFor(db, pluginIds).select('seq').limit(limitLiteral(1)).execute()).length > 0;
}

/** The oldest `limit` events waiting for any of `pluginIds`, in the order they happened. */
export function queuedEventsFor(tx: Db, pluginIds: readonly string[], limit: number): Promise<QueuedEventRow[]> {
  return waitingFor(tx, pluginIds).selectAll().orderBy('seq').limit(limitLiteral(limit)).execute();
}

/** Takes `pluginIds` off the events they have taken: a row no plugin waits for any more goes. */
export async function markEventsTaken(tx: Db, pluginIds: readonly string[], rows: readonly QueuedEventRow[]): Promise<void> {
  const remaining = new Map<string, number[]>();
  for (const row of rows) {
    const consumers = pluginIds.reduce((left, id) => left.replace(`,${id},`, ','), row.consumers);
    const seqs = remaining.get(consumers);
    if (seqs) seqs.push(row.seq);
    else remaining.set(consumers, [row.seq]);
  }
  for (const [consumers, seqs] of remaining) {
    if (consumers === ',') await tx.kysely.deleteFrom('plugin_events').where(inBoundList(tx, 'seq', seqs)).execute();
    else await tx.kysely.updateTable('plugin_events').set({ consumers }).where(inBoundList(tx, 'seq', seqs)).execute();
  }
}

// Plugin ids are lower-case letters, digits and dashes: nothing LIKE treats specially.
function waitingFor(db: Db, pluginIds: readonly string[]) {
  return db.kysely.selectFrom('plugin_events').where((where) => where.or(pluginIds.map((id) => where('consumers', 'like', `%,${id},%`))));
}
