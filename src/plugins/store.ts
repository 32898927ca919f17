import type { Db } from '../db/connection.ts';
import { ReadCache } from '../db/read-cache.ts';

/** A plugin's stored switch and settings (JSON text, or null when never written). */
export interface StoredPluginState {
  enabled: boolean;
  settings: string | null;
}

// One entry: every plugin's row, read together. A change by any process is seen at the next request
// on SQLite (the change stamp); PostgreSQL reads the small table each time (read-cache.ts).
const states = new ReadCache<Map<string, StoredPluginState>>(1, ['plugin_states']);

export async function readPluginStates(db: Db): Promise<Map<string, StoredPluginState>> {
  const loaded = await states.get(db, 'all', async () => {
    const rows = await db.kysely.selectFrom('plugin_states').select(['plugin_id', 'enabled', 'settings']).execute();
    return new Map(rows.map((row) => [row.plugin_id, { enabled: row.enabled === 1, settings: row.settings }]));
  });
  return loaded ?? new Map();
}

/** Writes the switch or the settings, keeping the other as it was (or as `fallback` says, for a first write). */
export async function writePluginState(db: Db, pluginId: string, change: { enabled?: boolean; settings?: string }, fallback: { enabled: boolean }, now: string): Promise<void> {
  const set: { enabled?: number; settings?: string; updated_at: string } = { updated_at: now };
  if (change.enabled !== undefined) set.enabled = change.enabled ? 1 : 0;
  if (change.settings !== undefined) set.settings = change.settings;
  await db.kysely
    .insertInto('plugin_states')
    .values({ plugin_id: pluginId, enabled: (change.enabled ?? fallback.enabled) ? 1 : 0, settings: change.settings ?? null, updated_at: now })
    .onConflict((conflict) => conflict.column('plugin_id').doUpdateSet(set))
    .execute();
}
